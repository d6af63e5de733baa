/**
 * The report page in a real browser: Debian's chromium (/usr/bin/chromium), driven by playwright-core. The page
 * must draw its charts (canvases with pixels on them), log no console error, and ask the network for nothing;
 * a screenshot is kept in test-artifacts/ (git-ignored). Skipped, saying why, only when chromium is absent;
 * `.ci/run` installs it on a fresh machine.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../../backtest/run-backtest.js';
import { writeReport } from '../../../backtest/report/write-report.js';
import { repoPath } from '../../helpers/shared.js';
import { workedExample } from './fixture.js';

const CHROMIUM = process.env.REXBOT_CHROMIUM ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) process.stderr.write(`report page browser test skipped: no chromium at ${CHROMIUM} (apt-get install chromium)\n`);

describe.skipIf(!present)('report.html in headless chromium', () => {
  let browser: BrowserContext;
  let profile: string;
  let out: string;

  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), 'rexbot-chromium-'));
    out = await mkdtemp(join(tmpdir(), 'rexbot-report-page-'));
    // A fresh profile each run; playwright-core passes it as --user-data-dir and adds --headless itself.
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1200, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await rm(profile, { recursive: true, force: true });
    await rm(out, { recursive: true, force: true });
  });

  /** Open `html`, wait for `ids` to be drawn; returns ink per chart, console errors and network requests. */
  async function open(html: string, ids: string[], screenshot: string): Promise<{ inked: number[]; errors: string[]; requests: string[]; page: Page }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (!url.startsWith('file:') && !url.startsWith('data:')) requests.push(url);
      return url.startsWith('file:') || url.startsWith('data:') ? route.continue() : route.abort();
    });
    await page.goto(pathToFileURL(html).href);
    // Browser-side code as text: the project compiles without the DOM typings.
    await page.waitForFunction(`${JSON.stringify(ids)}.every((id) => document.getElementById(id)?.getAttribute('data-drawn') === '1')`);
    // Each chart's canvas has pixels that are not background: the series were drawn.
    const inked = await page.evaluate<number[]>(`${JSON.stringify(ids)}.map((id) => {
      const c = document.querySelector('#' + id + ' canvas');
      if (!c || c.width === 0 || c.height === 0) return 0;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n;
    })`);
    const artifacts = resolve('test-artifacts');
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, screenshot), fullPage: true });
    return { inked, errors, requests, page };
  }

  it('draws every chart with no console error and no network request', async () => {
    const { html } = await writeReport(workedExample(), out);
    const ids = ['chart-equity', 'chart-drawdown', 'chart-position', 'chart-price-0', 'chart-price-1'];
    const { inked, errors, requests, page } = await open(html, ids, 'report-page.png');
    for (const [i, n] of inked.entries()) expect(n, `${ids[i]} has ink`).toBeGreaterThan(100);
    expect(await page.locator('#trades tr').count()).toBe(4);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('draws the report of a real backtest (the shipped example config)', async () => {
    const { report } = await runBacktest({ configPath: repoPath('config', 'backtest.yaml') });
    const dir = join(out, 'real');
    const { html } = await writeReport(report, dir);
    const ids = ['chart-equity', 'chart-drawdown', 'chart-position', 'chart-price-0'];
    const { inked, errors, requests, page } = await open(html, ids, 'report-page-backtest.png');
    for (const [i, n] of inked.entries()) expect(n, `${ids[i]} has ink`).toBeGreaterThan(100);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });
});
