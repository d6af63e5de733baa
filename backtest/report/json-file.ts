/**
 * report.json written piece by piece: the same bytes as {@link stringifyReport}, without ever holding the whole
 * text. A long run's report lists every order and fill (~700 bytes of text each): an active market maker on 4M
 * synthetic events wrote 57 MB, and one string of it, with the canonical copy it was made from, raised the run's
 * peak memory by ~150 MB; past ~512 MB of text V8 cannot make the string at all ("Invalid string length"), and the
 * run's whole result would be lost at the last step.
 */
import { createWriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { canonical } from './report-json.js';

/** Text is handed to the file in chunks of about this many characters. */
const CHUNK = 1 << 20;

/**
 * Write `value` to `target` (a path, or a file open for writing, left open) exactly as `stringifyReport(value)`
 * would write it (sorted keys, undefined members left out, non-finite numbers as null, two-space indentation, a
 * final newline).
 *
 * @example
 * await writeReportJson('out/report.json', buildReport(input));
 */
export async function writeReportJson(target: string | FileHandle, value: unknown): Promise<void> {
  if (typeof target === 'string') {
    await pipeline(Readable.from(reportJsonChunks(value), { objectMode: false }), createWriteStream(target));
    return;
  }
  // (A stream over a FileHandle keeps it busy until the stream closes it: the caller could not close it then.)
  for (const chunk of reportJsonChunks(value)) await target.writeFile(chunk); // each whole, after the one before
}

/** The text of {@link writeReportJson}, in chunks of about {@link CHUNK} characters. */
export function* reportJsonChunks(value: unknown): Generator<string> {
  let buf = '';
  // Long arrays are written a batch of elements at a time, and the objects and arrays that hold them member by
  // member; everything else is JSON.stringify's, indented to its depth (JSON text has no raw newline inside a
  // string, so indenting after every newline is exact).
  function* write(v: unknown, indent: string): Generator<string> {
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      // Its elements' depth: "[\n" and "\n]" at each level of nesting around them are depth * (depth + 1) chars.
      const depth = indent.length / 2 + 1;
      buf += '[';
      for (let i = 0; i < v.length; ) {
        buf += i === 0 ? '\n' : ',\n';
        if (long(v[i])) {
          buf += inner;
          yield* write(v[i], inner);
          i++;
        } else {
          // A run of short elements in one JSON.stringify, nested in as many arrays as this one is deep so that
          // they come out indented to it: the text between the brackets.
          let j = i + 1;
          while (j < v.length && j - i < BATCH && !long(v[j])) j++;
          let nested = canonical(v.slice(i, j));
          for (let k = 1; k < depth; k++) nested = [nested];
          const t = JSON.stringify(nested, null, 2);
          const wrap = depth * (depth + 1);
          buf += t.slice(wrap, t.length - wrap);
          i = j;
        }
        if (buf.length >= CHUNK) {
          yield buf;
          buf = '';
        }
      }
      buf += `\n${indent}]`;
      return;
    }
    // canonical's object: keys sorted, absent members left out, then in the order JSON.stringify walks it. Not
    // empty: it holds a long array.
    const c: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (!absent(x)) c[k] = x;
    }
    const keys = Object.keys(c);
    buf += '{';
    for (let i = 0; i < keys.length; i++) {
      const x = c[keys[i]!];
      buf += `${i === 0 ? '\n' : ',\n'}${inner}${JSON.stringify(keys[i])}: `;
      if (long(x)) yield* write(x, inner);
      else buf += text(x, inner);
    }
    buf += `\n${indent}}`;
  }
  if (long(value)) yield* write(value, '');
  else buf = text(value, '');
  yield `${buf}\n`;
}

/** Arrays longer than this are written a few hundred elements at a time. */
const LONG = 64;
/** Short elements written by one JSON.stringify. */
const BATCH = 512;

/** A long array, or an object or array that holds one at some depth. */
function long(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) {
    if (v.length > LONG) return true;
    for (let i = 0; i < v.length; i++) if (long(v[i])) return true;
    return false;
  }
  for (const k in v) if (Object.hasOwn(v, k) && long((v as Record<string, unknown>)[k])) return true;
  return false;
}

/** `v` as JSON.stringify writes it after canonical, at `indent`. */
function text(v: unknown, indent: string): string {
  const t = String(JSON.stringify(canonical(v), null, 2));
  return indent === '' ? t : t.replaceAll('\n', `\n${indent}`);
}

/** What JSON leaves out of an object (and writes as null in an array). */
function absent(x: unknown): boolean {
  return x === undefined || typeof x === 'function' || typeof x === 'symbol';
}
