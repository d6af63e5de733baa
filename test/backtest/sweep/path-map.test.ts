import { describe, expect, it } from 'vitest';
import { mapJobIn, mapPath, mapResultOut, parsePathMapping } from '../../../backtest/sweep/path-map.js';
import type { SweepResult } from '../../../backtest/sweep/sweep-job.js';

describe('worker path mapping (--map FROM=TO)', () => {
  const maps = [parsePathMapping('/home/ann/rexbot/=/srv/rexbot'), parsePathMapping('/mnt/share=/Volumes/share')];

  it('rewrites whole leading path segments, first match, and back', () => {
    expect(mapPath('/home/ann/rexbot/config/backtest.yaml', maps)).toBe('/srv/rexbot/config/backtest.yaml');
    expect(mapPath('/home/ann/rexbot', maps)).toBe('/srv/rexbot');
    expect(mapPath('/home/ann/rexbot2/x', maps)).toBe('/home/ann/rexbot2/x');
    expect(mapPath('/mnt/share/out/1-a=1', maps)).toBe('/Volumes/share/out/1-a=1');
    expect(mapPath('/Volumes/share/out/1-a=1/report.html', maps, true)).toBe('/mnt/share/out/1-a=1/report.html');
    expect(mapPath('/elsewhere', maps)).toBe('/elsewhere');
  });

  it('normalises `..` before it maps: a path that climbs out of FROM is not mapped under TO', () => {
    expect(mapPath('/home/ann/rexbot/../../../etc/passwd', maps)).toBe('/etc/passwd');
    expect(mapPath('/home/ann/rexbot/config/../data/x.csv', maps)).toBe('/srv/rexbot/data/x.csv');
    expect(mapPath('/Volumes/share/../../etc', maps, true)).toBe('/etc');
  });

  it('maps a job in and its report paths out; an error passes as it is', () => {
    const job = mapJobIn({ index: 0, configPath: '/home/ann/rexbot/config/b.yaml', params: { a: 1 }, outDir: '/mnt/share/out/1-a=1' }, maps);
    expect(job).toEqual({ index: 0, configPath: '/srv/rexbot/config/b.yaml', params: { a: 1 }, outDir: '/Volumes/share/out/1-a=1' });
    const ok = { index: 0, params: {}, ok: true, outDir: job.outDir, html: `${job.outDir}/report.html`, metrics: {}, events: 1, wallMs: 1 } as unknown as SweepResult;
    expect(mapResultOut(ok, maps)).toMatchObject({ outDir: '/mnt/share/out/1-a=1', html: '/mnt/share/out/1-a=1/report.html' });
    const failed: SweepResult = { index: 0, params: {}, ok: false, error: 'boom' };
    expect(mapResultOut(failed, maps)).toBe(failed);
  });

  it('refuses what is not FROM=TO with absolute paths, saying which', () => {
    expect(() => parsePathMapping('/a')).toThrow('--map /a: expected FROM=TO');
    expect(() => parsePathMapping('a=/b')).toThrow('--map a=/b: a is not an absolute path');
    expect(() => parsePathMapping('/a=')).toThrow('expected FROM=TO');
  });
});
