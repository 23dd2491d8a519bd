/**
 * Issue #35, item 7: a DNS-rebinding page cannot use the simulator with the demo keys.
 * The keys are public, so a page whose name was rebound to 127.0.0.1 could get a token,
 * list the webhooks (the relay's secret URL among them) and add or delete them: every
 * path now refuses a Host that is a DNS name (other than localhost).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { start, token } from './helpers.js';

let sim: RunningSimulator;
let bearer = '';
beforeAll(async () => {
  sim = await start();
  bearer = await token(sim, 'calendar');
});
afterAll(() => sim.close());

/** A request as the rebinding page's browser sends it: its own name in Host. */
function asPage(
  method: string,
  path: string,
  host: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${sim.url}${path}`,
      {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), host, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('a page whose name was rebound to 127.0.0.1', () => {
  it('gets 403 on every path: token, webhook list, webhook add and delete', async () => {
    const port = new URL(sim.url).port;
    const auth = { authorization: `Bearer ${bearer}` };
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'calendar',
      client_id: sim.clientId,
      client_secret: sim.clientSecret,
    }).toString();
    for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, 'evil.example']) {
      const attempts = [
        await asPage('POST', '/auth/v2/token', host, form, {
          'content-type': 'application/x-www-form-urlencoded',
        }),
        await asPage('GET', '/calendar/webhooks', host, undefined, auth),
        await asPage(
          'POST',
          '/calendar/webhooks',
          host,
          JSON.stringify({ url: 'https://evil.example/x' }),
          auth,
        ),
        await asPage('DELETE', '/calendar/webhooks/1', host, undefined, auth),
        await asPage('GET', '/news/webhooks', host, undefined, auth),
      ];
      for (const a of attempts) {
        expect(a.status, `${host} ${a.text}`).toBe(403);
        expect(a.text).toMatch(/Host localhost or an IP address/);
      }
    }
    // The app and the relay name it by address or localhost: served.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
      expect((await asPage('GET', '/calendar/webhooks', host, undefined, auth)).status).toBe(200);
  });
});
