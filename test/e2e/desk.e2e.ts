// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Desk mode end to end with real processes: the simulator as the service, the relay with
 * the desk's keys (registered for the simulator's webhooks), and web mode started with
 * only MACROBELL_RELAY_URL + MACROBELL_RELAY_TOKEN — no provider key and no service token
 * on the "desktop": calendar and news come through the relay's gateway. The dashboard's
 * session is the cookie and the page's key: a replay of the cookie alone is refused.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDate } from '../../src/shared/domain.js';
import {
  DESK_PRIVATE,
  DESK_PUBLIC,
  exited,
  relayCommand,
  serviceFlags,
  spawnCli,
  spawnRelayCli,
  spawnSimulator,
  type Proc,
} from '../integration/desk/processes.js';
import { CHROMIUM } from './harness.js';

const procs: Proc[] = [];
let sim: Proc;
let web: Proc;
let relay: Proc;
let browser: Browser;
let page: Page;
const appData = mkdtempSync(join(tmpdir(), 'mb-desk-web-'));
const relayData = mkdtempSync(join(tmpdir(), 'mb-desk-relay-'));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

async function api<T>(method: string, input?: unknown): Promise<{ text: string; value: T }> {
  const text = await page.evaluate(
    async ([m, body]) => {
      const res = await fetch(`/api/${m}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-macrobell-key': localStorage.getItem('macrobell.pageKey') ?? '',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.text();
    },
    [method, input] as const,
  );
  return { text, value: (JSON.parse(text) as { value: T }).value };
}

beforeAll(async () => {
  sim = await spawnSimulator();
  procs.push(sim);
  relay = await spawnRelayCli(['--port', '0', '--data', relayData, ...serviceFlags(sim.url)], {
    MACROBELL_PUBLIC_KEY: DESK_PUBLIC,
    MACROBELL_PRIVATE_KEY: DESK_PRIVATE,
  });
  procs.push(relay);
  const keys = { MACROBELL_PUBLIC_KEY: DESK_PUBLIC, MACROBELL_PRIVATE_KEY: DESK_PRIVATE };
  const reg = await relayCommand(
    ['register', '--public-url', relay.url, '--data', relayData, ...serviceFlags(sim.url)],
    keys,
  );
  expect(reg.code, reg.stdout + reg.stderr).toBe(0);
  const added = await relayCommand(['users', 'add', 'alice', '--data', relayData]);
  const alice = added.stdout.trimEnd().split('\n').at(-1) as string;
  web = await spawnCli(
    'src/main/web/cli.ts',
    ['--port', '0', '--data', appData],
    {
      MACROBELL_RELAY_URL: relay.url,
      MACROBELL_RELAY_TOKEN: alice,
      MACROBELL_AUTH_URL: `${sim.url}/auth`,
      MACROBELL_CALENDAR_URL: `${sim.url}/calendar`,
      MACROBELL_NEWS_URL: `${sim.url}/news`,
      MACROBELL_PUBLIC_KEY: '',
      MACROBELL_PRIVATE_KEY: '',
      // No keychain: the desk needs none on this machine.
      DBUS_SESSION_BUS_ADDRESS: '',
    },
    /web UI on (\S+)\n/,
  );
  procs.push(web);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(web.url);
  await page.locator('[data-testid=event-row]').first().waitFor({ timeout: 30_000 });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  for (const p of procs) p.child.kill('SIGTERM');
  await Promise.all(procs.map((p) => exited(p.child)));
});

describe('web mode in desk mode', () => {
  it('shows the calendar and news from the service through the relay gateway', async () => {
    expect(await page.getByTestId('demo-badge').count()).toBe(0);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^News/ })
      .click();
    await page.getByTestId('post-item').first().waitFor({ timeout: 20_000 });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Calendar/ })
      .click();
    // No service token was handed out: the relay read the service for alice.
    expect(relay.stdout()).not.toContain('token_issued');
    expect(relay.stdout()).not.toContain('gateway_refused');
    await page.screenshot({ path: join(tmpdir(), 'macrobell-desk-web.png') });
  });

  it('receives a release live through the relay', async () => {
    const dates = (await (await fetch(`${sim.url}/_sim/event-dates`)).json()) as EventDate[];
    const target = dates.find(
      (d) => d.actual === null && d.volatility !== 'NONE' && Date.parse(d.dateUtc) > Date.now(),
    ) as EventDate;
    await page.getByLabel('Filter events by name').fill(target.name);
    const row = page.locator(`[data-event-date-id="${target.id}"]`);
    await row.waitFor({ timeout: 15_000 });
    const status = await api<{ relay: { connected: boolean } | null }>('getStatus');
    expect(status.value.relay?.connected).toBe(true);
    const patched = await fetch(`${sim.url}/_sim/event-dates/${target.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ actual: 4242.5 }),
    });
    expect(patched.status).toBe(200);
    await expect
      .poll(() => row.locator('[data-col=actual]').textContent(), { timeout: 15_000 })
      .toMatch(/4,?242\.5/);
  });

  it('shows the desk connection in Settings and tests it through the relay', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Settings/ })
      .click();
    const card = page.getByTestId('connection-card');
    expect(await card.getByRole('radio', { name: /Desk relay/ }).isChecked()).toBe(true);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect
      .poll(() => card.getByRole('list', { name: 'Connection test' }).textContent())
      .toMatch(/calendar:.*Connected.*news:.*Connected/);
    await page.screenshot({ path: join(tmpdir(), 'macrobell-desk-settings.png') });
  });

  it('refuses a request that replays only the session cookie', async () => {
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name.startsWith('macrobell_session_'));
    expect(session?.httpOnly).toBe(true);
    const cookie = `${session?.name}=${session?.value}`;
    const replay = await fetch(`${web.url.split('/?')[0]}/api/getCalendarFeed`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(replay.status).toBe(401);
    const settingsReplay = await fetch(`${web.url.split('/?')[0]}/api/updateSettings`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ relayUrl: 'http://127.0.0.1:9' }),
    });
    expect(settingsReplay.status).toBe(401);
    // The page itself still works: its calls carry the key.
    expect((await api<{ connection: string }>('getSettings')).value.connection).toBe('desk');
  });

  it('keeps the provider private key out of every page, API answer and data file', async () => {
    const answers = await Promise.all(
      ['getStatus', 'getSettings', 'getCredentials', 'getDiagnostics', 'testConnection'].map((m) =>
        api<unknown>(m),
      ),
    );
    const test = JSON.parse(answers[4]?.text as string) as { value: { ok: boolean } };
    expect(test.value.ok).toBe(true);
    for (const a of answers) expect(a.text).not.toContain(DESK_PRIVATE);
    expect(await page.content()).not.toContain(DESK_PRIVATE);
    const files = filesUnder(appData);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(f).includes(DESK_PRIVATE), f).toBe(false);
    expect(`${web.stdout()}${web.stderr()}`).not.toContain(DESK_PRIVATE);
  });

  it('logs out of the browser from Settings: the page and its key stop working', async () => {
    const key = await page.evaluate(() => localStorage.getItem('macrobell.pageKey'));
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Settings/ })
      .click();
    await page.getByRole('button', { name: 'Log out of this browser' }).click();
    await expect.poll(() => page.content(), { timeout: 15_000 }).toContain('npm run web');
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => c.name.startsWith('macrobell_session_') && c.value)).toBe(false);
    const base = web.url.split('/?')[0] as string;
    const withOldKey = await fetch(`${base}/api/getSettings`, {
      method: 'POST',
      headers: { 'x-macrobell-key': key ?? '' },
    });
    expect(withOldKey.status).toBe(401);
  });
});
