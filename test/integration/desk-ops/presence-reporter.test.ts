/**
 * The app's presence reporter against a relay from before today's prints: that relay refuses
 * a report carrying `applied` or `alerts` (400, unknown key), so the reporter sends the same
 * report without the newest field, then without the next, and keeps doing so — presence
 * never breaks on an older relay. A relay that
 * never answers has the report given up after its timeout (a timer of the reporter's own,
 * not undici's: issue #37), so the next report is not held up.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresenceReporter } from '../../../src/main/desk/presence-reporter.js';
import { waitFor } from '../relay/helpers.js';

let server: Server;
let url = '';
const bodies: Record<string, unknown>[] = [];
/** Requests to /silent/presence: read, never answered. */
let silentRequests = 0;

beforeAll(async () => {
  // The older relay's check: exactly {desktop, appliedId}.
  server = createServer((req, res) => {
    if (req.url === '/silent/presence') {
      silentRequests++;
      req.resume();
      return;
    }
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      bodies.push(body);
      const ok = Object.keys(body).sort().join(',') === 'appliedId,desktop';
      res.writeHead(ok ? 204 : 400).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

describe('presence reporter', () => {
  it('drops the applied times and the alerts summary for a relay that refuses them, and reports on', async () => {
    const reporter = new PresenceReporter({
      token: async () => 'mbu_token',
      desktopId: 'desk-old-relay1',
      appVersion: '1.5.0',
      os: 'linux',
      everyMs: 60_000,
      alertsToday: () => ({ day: 0, count: 1, p50LateMs: 5, maxLateMs: 5, last: null }),
    });
    reporter.connected(url, '1');
    await reporter.idle();
    reporter.applied('2');
    await waitFor(() => bodies.length === 4, 'four reports');
    await reporter.idle();
    reporter.disconnected();
    expect(bodies.map((b) => [b.appliedId, 'applied' in b, 'alerts' in b])).toEqual([
      ['1', true, true],
      ['1', false, true],
      ['1', false, false],
      ['2', false, false],
    ]);
  });

  it('gives up a report the relay never answers, and reports again', async () => {
    const warnings: string[] = [];
    const logger = {
      warn: (o: { err?: Error }, msg: string) => warnings.push(`${msg}: ${o.err?.message}`),
      debug: () => undefined,
    } as unknown as Logger;
    const reporter = new PresenceReporter({
      token: async () => 'mbu_token',
      desktopId: 'desk-silent-relay1',
      appVersion: '1.5.0',
      os: 'linux',
      everyMs: 60_000,
      reportTimeoutMs: 300,
      logger,
    });
    reporter.connected(`${url}/silent`, '1');
    await reporter.idle();
    expect(warnings).toEqual(['presence report failed: the relay did not answer within 300 ms']);
    reporter.applied('2');
    await reporter.idle();
    reporter.disconnected();
    expect(silentRequests).toBe(2);
    // one warning per run of failures
    expect(warnings).toHaveLength(1);
  });
});
