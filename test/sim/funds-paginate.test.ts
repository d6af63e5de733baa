import { describe, expect, it } from 'vitest';
import { applyDateFilter, listPage, paginate, validatePageQuery } from '../../src/sim/paginate.js';
import { refusal } from './sim-fixture.js';

interface Item {
  id: string;
  at: Date | undefined;
}

const T0 = Date.parse('2021-06-01T00:00:00Z');
/** 250 items, newest first (as a "sorted by date descending" endpoint would hold them). */
const items: Item[] = Array.from({ length: 250 }, (_, i) => ({ id: `id-${249 - i}`, at: new Date(T0 + (249 - i) * 1000) }));
const idOf = (t: Item) => t.id;
const ids = (xs: Item[]) => xs.map((x) => x.id);

describe('paginate', () => {
  it('answers the first 100 items by default and at most pageSize', () => {
    expect(paginate(items, idOf, {})).toHaveLength(100);
    expect(ids(paginate(items, idOf, { pageSize: 3 }))).toEqual(['id-249', 'id-248', 'id-247']);
    expect(paginate(items, idOf, { pageSize: 200 })).toHaveLength(200);
    expect(paginate(items.slice(0, 5), idOf, { pageSize: 200 })).toHaveLength(5);
  });

  it('starts right after nextPageToken', () => {
    expect(ids(paginate(items, idOf, { pageSize: 2, nextPageToken: 'id-249' }))).toEqual(['id-248', 'id-247']);
    // The last item as token: nothing after it.
    expect(paginate(items, idOf, { nextPageToken: 'id-0' })).toEqual([]);
  });

  it('ends right before previousPageToken, answering the page that precedes it', () => {
    expect(ids(paginate(items, idOf, { pageSize: 2, previousPageToken: 'id-245' }))).toEqual(['id-247', 'id-246']);
    // Close to the head: only what exists before it.
    expect(ids(paginate(items, idOf, { pageSize: 5, previousPageToken: 'id-248' }))).toEqual(['id-249']);
    expect(paginate(items, idOf, { previousPageToken: 'id-249' })).toEqual([]);
  });

  it('walks forward then back to the same pages', () => {
    const p1 = paginate(items, idOf, { pageSize: 100 });
    const p2 = paginate(items, idOf, { pageSize: 100, nextPageToken: p1.at(-1)!.id });
    const p3 = paginate(items, idOf, { pageSize: 100, nextPageToken: p2.at(-1)!.id });
    expect(p3).toHaveLength(50);
    expect(new Set(ids([...p1, ...p2, ...p3])).size).toBe(250);
    expect(paginate(items, idOf, { pageSize: 100, previousPageToken: p2[0]!.id })).toEqual(p1);
    expect(paginate(items, idOf, { pageSize: 100, previousPageToken: p3[0]!.id })).toEqual(p2);
  });

  it('compares token ids case-insensitively (uuids)', () => {
    const u = [{ id: 'abcdef00-0000-4000-8000-000000000001', at: undefined }, { id: 'abcdef00-0000-4000-8000-000000000002', at: undefined }];
    expect(paginate(u, idOf, { nextPageToken: 'ABCDEF00-0000-4000-8000-000000000001' })).toEqual([u[1]]);
  });

  it('refuses a token that matches no item with the seed codes', () => {
    const n = refusal(() => paginate(items, idOf, { nextPageToken: 'nope' }));
    expect([n.status, n.code]).toEqual([400, 'INVALID_NEXT_PAGE_TOKEN']);
    const p = refusal(() => paginate(items, idOf, { previousPageToken: 'nope' }));
    expect([p.status, p.code]).toEqual([400, 'INVALID_PREVIOUS_PAGE_TOKEN']);
    // Even on an empty list.
    expect(refusal(() => paginate([], idOf, { nextPageToken: 'x' })).code).toBe('INVALID_NEXT_PAGE_TOKEN');
  });

  it('refuses both tokens together', () => {
    const e = refusal(() => paginate(items, idOf, { nextPageToken: 'id-1', previousPageToken: 'id-2' }));
    expect([e.status, e.code]).toEqual([400, 'BAD_REQUEST']);
    expect(e.data).toEqual({ invalidRequestParameters: ['previousPageToken'] });
  });

  it.each([0, 201, -1, 1.5, Number.NaN])('refuses pageSize %s', (pageSize) => {
    const e = refusal(() => paginate(items, idOf, { pageSize }));
    expect([e.status, e.code]).toEqual([400, 'BAD_REQUEST']);
    expect(e.data).toEqual({ invalidRequestParameters: ['pageSize'] });
  });

  it('accepts the pageSize bounds 1 and 200', () => {
    expect(paginate(items, idOf, { pageSize: 1 })).toHaveLength(1);
    expect(paginate(items, idOf, { pageSize: 200 })).toHaveLength(200);
  });
});

describe('applyDateFilter', () => {
  const dateOf = (t: Item) => t.at;

  it('keeps items within [startDate, endDate], both inclusive', () => {
    const out = applyDateFilter(items, dateOf, { startDate: new Date(T0 + 10_000), endDate: new Date(T0 + 12_000) });
    expect(ids(out)).toEqual(['id-12', 'id-11', 'id-10']);
  });

  it('applies either bound alone', () => {
    expect(applyDateFilter(items, dateOf, { startDate: new Date(T0 + 248_000) })).toHaveLength(2);
    expect(applyDateFilter(items, dateOf, { endDate: new Date(T0 + 1_000) })).toHaveLength(2);
  });

  it('ignores sub-second precision, as the service did', () => {
    const out = applyDateFilter(items, dateOf, { startDate: new Date(T0 + 5_700), endDate: new Date(T0 + 5_200) });
    expect(ids(out)).toEqual(['id-5']);
  });

  it('drops items without the date when a bound is given, keeps everything otherwise', () => {
    const mixed = [...items.slice(0, 2), { id: 'undated', at: undefined }];
    expect(applyDateFilter(mixed, dateOf, {})).toHaveLength(3);
    expect(ids(applyDateFilter(mixed, dateOf, { startDate: new Date(0) }))).not.toContain('undated');
  });

  it('refuses endDate before startDate, accepts equal dates', () => {
    const e = refusal(() => applyDateFilter(items, dateOf, { startDate: new Date(T0 + 2000), endDate: new Date(T0 + 1000) }));
    expect([e.status, e.code]).toEqual([400, 'BAD_REQUEST']);
    expect(e.data).toEqual({ invalidRequestParameters: ['endDate'] });
    expect(applyDateFilter(items, dateOf, { startDate: new Date(T0), endDate: new Date(T0) })).toHaveLength(1);
    expect(refusal(() => validatePageQuery({ startDate: new Date(Number.NaN) })).code).toBe('BAD_REQUEST');
  });
});

describe('listPage', () => {
  it('filters by date, then pages within the filtered list', () => {
    const q = { startDate: new Date(T0 + 100_000), endDate: new Date(T0 + 199_000), pageSize: 30 };
    const keys = { idOf, dateOf: (t: Item) => t.at };
    const p1 = listPage(items, keys, q);
    expect(p1[0]!.id).toBe('id-199');
    const p4 = listPage(items, keys, { ...q, nextPageToken: 'id-110' });
    expect(ids(p4)).toEqual(Array.from({ length: 10 }, (_, i) => `id-${109 - i}`));
    // A token outside the date window matches no item of this list.
    expect(refusal(() => listPage(items, keys, { ...q, nextPageToken: 'id-5' })).code).toBe('INVALID_NEXT_PAGE_TOKEN');
  });
});
