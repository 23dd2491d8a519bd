/**
 * The app's presence reporter against a relay from before today's prints: that relay refuses
 * a report carrying `alerts` (400, unknown key), so the reporter sends the same report
 * without it, and keeps doing so — presence never breaks on an older relay.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresenceReporter } from '../../../src/main/desk/presence-reporter.js';
import { waitFor } from '../relay/helpers.js';

let server: Server;
let url = '';
const bodies: Record<string, unknown>[] = [];

beforeAll(async () => {
  // The older relay's check: exactly {desktop, appliedId}.
  server = createServer((req, res) => {
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
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('presence reporter', () => {
  it('drops the alerts summary for a relay that refuses it, and reports on', async () => {
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
    await waitFor(() => bodies.length === 3, 'three reports');
    await reporter.idle();
    reporter.disconnected();
    expect(bodies.map((b) => [b.appliedId, 'alerts' in b])).toEqual([
      ['1', true],
      ['1', false],
      ['2', false],
    ]);
  });
});
