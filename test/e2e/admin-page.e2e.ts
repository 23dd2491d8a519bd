/**
 * The relay's admin page in Debian's Chromium: a desk relay with the simulator as the
 * service, three traders (one live desktop, one whose connection dropped, one never seen)
 * who all watch the next HIGH release. The page needs an admin token; a trader token is
 * refused; the page lists who would miss the release and escapes what desktops sent, shows
 * each desktop's prints alerted today and how late, and the delivery log (a section, and its
 * own page with a range form).
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteAdminStore } from '../../src/relay/desk-ops/admin/admin-store.js';
import { utcDayStart } from '../../src/shared/desk-alerts-today.js';
import { startRelay, type RunningRelay } from '../../src/relay/server.js';
import { openRelayDatabase } from '../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../src/relay/users/users.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import {
  startCuttableProxy,
  startDesktop,
  type Desktop,
} from '../integration/desk-ops/desktops.js';
import { tempDir, waitFor } from '../integration/relay/helpers.js';
import { CHROMIUM } from './harness.js';
import { createHighRelease } from '../support/releases.js';

let sim: RunningSimulator;
let relay: RunningRelay;
let browser: Browser;
let proxy: Awaited<ReturnType<typeof startCuttableProxy>>;
const desktops: Desktop[] = [];
const tokens: Record<string, string> = {};
let adminToken = '';
let release = { eventId: '', name: '' };

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: sudo apt-get install -y chromium`);
  sim = await startSimulator({ seed: 4, autoplay: false, speed: 0, log: () => undefined });
  const next = await createHighRelease(sim.url, 2 * 3_600_000);
  release = { eventId: next.eventId, name: next.name };
  const data = tempDir('mb-admin-page-');
  const users = new UserDirectory(openRelayDatabase(data));
  for (const n of ['ana', 'ben', 'cy']) tokens[n] = users.add(n).token;
  users.db.close();
  const admins = SqliteAdminStore.open(data);
  adminToken = (await admins.add('lead')).token;
  await admins.close();
  relay = await startRelay({
    dataDir: data,
    secret: 'admin-page-secret',
    token: 'admin-page-legacy',
    nodeName: 'node-a',
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl },
  });
  for (const n of ['ana', 'ben', 'cy']) {
    const res = await request(`${relay.url}/watchlist`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens[n]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ eventIds: [release.eventId] }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  }
  proxy = await startCuttableProxy(relay.url);
  desktops.push(
    startDesktop({
      name: 'ana',
      url: relay.url,
      token: tokens.ana as string,
      desktopId: 'desk-ana-0001',
      alertsToday: () => ({
        day: utcDayStart(Date.now()),
        count: 3,
        p50LateMs: 800,
        maxLateMs: 4200,
        last: {
          title: 'US CPI <i>m/m</i>',
          printAt: Date.parse('2026-01-02T13:30:00Z'),
          lateMs: 800,
        },
      }),
    }),
    startDesktop({
      name: 'ben',
      url: proxy.url,
      token: tokens.ben as string,
      desktopId: 'desk-ben-0001',
      appVersion: '1.3.0<b>',
    }),
  );
  // A desktop that has not opened its stream yet starts after what is already there: post
  // until both have applied one (a new body each time, as the relay stores a repeat once).
  let n = 0;
  await waitFor(async () => {
    await fetch(`${relay.webhookUrl}`, {
      method: 'POST',
      body: JSON.stringify({ type: 't', n: n++ }),
      headers: { 'content-type': 'application/json' },
    });
    return desktops.every((d) => d.cursor() !== null);
  }, 'both desktops to apply');
  proxy.drop();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const d of desktops) await d.stop();
  await proxy?.close();
  await relay?.close();
  await sim?.close();
});

describe('admin page', () => {
  it('refuses a trader token and no token; JSON needs the admin token too', async () => {
    const json = (token?: string) =>
      request(`${relay.url}/admin`, {
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      }).then(async (r) => ({ status: r.statusCode, body: await r.body.text() }));
    expect((await json()).status).toBe(401);
    const trader = await json(tokens.ana);
    expect(trader.status).toBe(403);
    expect(trader.body).toContain('trader token');
    expect((await json('admin-page-legacy')).status).toBe(403);
    const ok = await json(adminToken);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).traders.map((t: { user: string }) => t.user)).toEqual([
      'ana',
      'ben',
      'cy',
    ]);
  });

  it('signs in with the admin token and shows traders, lag, node and who would miss', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const csp: string[] = [];
    page.on('console', (m) => csp.push(m.text()));
    await page.goto(`${relay.url}/admin`);
    await page.fill('input[name=token]', tokens.ben as string);
    await page.click('button[type=submit]');
    await expect.poll(() => page.textContent('body')).toContain('That is a trader token');
    await page.fill('input[name=token]', adminToken);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Signed in as lead');
    const bodyText = (await page.textContent('body')) ?? '';
    expect(bodyText).toContain(release.name);
    // ben dropped, cy never connected; ana is live and current.
    const missCell = await page
      .locator('tr', { hasText: release.name })
      .locator('td')
      .nth(4)
      .textContent();
    expect(missCell).toContain('ben (no desktop connected)');
    expect(missCell).toContain('cy (no desktop connected)');
    expect(missCell).not.toContain('ana');
    const anaRow = page.locator('tr', { hasText: 'desk-ana-0001' });
    await expect
      .poll(() => anaRow.textContent())
      .toMatch(/connected since.*1\.4\.2.*node-a.*0 events, 0 s/s);
    const benRow = page.locator('tr', { hasText: 'desk-ben-0001' });
    expect(await benRow.textContent()).toContain('disconnected');
    // What a desktop sent is shown as text: the app strips markup from its version, and the
    // page escapes every value (no <b> element made it into the DOM).
    expect(await page.locator('b').count()).toBe(0);
    // Prints alerted today, from the desktop's alert receipts (its title is text, not markup).
    await expect
      .poll(() => anaRow.locator('td').last().innerText())
      .toBe('3 · p50 0.8 s · max 4.2 s\nlast: US CPI <i>m/m</i> at 13:30Z, 0.8 s late');
    expect(await benRow.locator('td').last().textContent()).toBe('—');
    expect(await page.locator('i').evaluateAll((els) => els.map((e) => e.outerHTML))).toEqual([]);
    // The delivery log of the last hour: ana applied every event, ben (dropped) did too
    // before the drop; nothing was posted since.
    const section = page.locator('h2', { hasText: 'Delivery log, last hour' });
    expect(await section.count()).toBe(1);
    const logRows = page.locator('h2:has-text("Delivery log") + p + table tbody tr');
    const listed = await logRows.count();
    expect(listed).toBeGreaterThan(0);
    expect(await logRows.first().textContent()).toMatch(/ of 2 desktops$/);
    await page.screenshot({ path: join(tmpdir(), 'macrobell-admin-page.png'), fullPage: true });

    await page.click('a[href^="/admin/log"]');
    await page.waitForSelector('h1:has-text("delivery log")');
    expect(await page.locator('tbody tr').count()).toBe(listed);
    await page.fill('input[name=since]', '2020-01-01T00:00:00Z');
    await page.fill('input[name=until]', '2020-01-02T00:00:00Z');
    await page.click('button[type=submit]');
    await page.waitForSelector('text=nothing received in this range');
    await page.fill('input[name=since]', 'last week');
    await page.click('button[type=submit]');
    expect(await page.textContent('body')).toContain('since and until must be ISO 8601');
    await page.fill('input[name=since]', '1h');
    await page.fill('input[name=until]', '');
    await page.click('button[type=submit]');
    await page.waitForSelector('h1:has-text("delivery log")');
    await page.screenshot({ path: join(tmpdir(), 'macrobell-admin-log.png'), fullPage: true });
    expect(csp.filter((m) => /Content Security Policy/i.test(m))).toEqual([]);
    await page.close();
  });
});
