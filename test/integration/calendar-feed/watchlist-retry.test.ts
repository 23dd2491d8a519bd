/**
 * The watch list upload when the relay is away: the failure is shown, retried on the
 * backoff (a manual clock moves it), and the list — the newest one — reaches the relay once
 * it is back. A real relay on loopback, stopped and started again on the same port.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, expect, it } from 'vitest';
import { WatchlistSync } from '../../../src/main/desk/watchlist-sync.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { ManualClock } from '../../support/manual-clock.js';

const data = mkdtempSync(join(tmpdir(), 'mb-feed-retry-'));
const relayOptions = {
  dataDir: data,
  secret: 'retry-secret',
  token: 'retry-legacy-token',
  desk: { keys: { publicKey: 'p', privateKey: 'k' }, authUrl: 'http://127.0.0.1:9/auth' },
};
let relay: RunningRelay | null = null;
afterAll(async () => {
  await relay?.close();
});

it('shows a failed upload, retries it, and sends the newest list once the relay is back', async () => {
  relay = await startRelay(relayOptions);
  const { port, url } = relay;
  const db = openRelayDatabase(data);
  const { token } = new UserDirectory(db).add('trader');
  db.close();
  await relay.close();
  relay = null;

  const clock = new ManualClock(Date.parse('2026-11-23T12:00:00Z'));
  let watched = ['891ff107-c21f-4952-b749-6d8c17944f60'];
  const sync = new WatchlistSync({
    isDesk: () => true,
    relayUrl: () => url,
    relayToken: async () => token,
    watchedEventIds: () => watched,
    timers: clock,
    now: clock.read,
    debounceMs: 1_000,
    retry: { minMs: 5_000, maxMs: 60_000 },
  });
  sync.changed();
  clock.advance(1_000);
  await sync.idle();
  expect(sync.state()).toMatchObject({ pending: true, syncedAt: null });
  expect(sync.state().error).toMatch(/Cannot reach .*Retrying in 5 s/);

  // Changed again while the relay is away: the newest list is what must arrive.
  watched = [...watched, '0b4c4f7e-33a8-4c5e-9d55-1f1b1e7d2a10', 'not-a-service-id'];
  sync.changed();
  clock.advance(1_000);
  await sync.idle();
  expect(sync.state().error).toMatch(/Retrying in 5 s/);

  relay = await startRelay({ ...relayOptions, port });
  clock.advance(4_999);
  await sync.idle();
  expect(sync.state().pending).toBe(true);
  clock.advance(1);
  await sync.idle();
  expect(sync.state()).toMatchObject({ pending: false, error: null, count: 2 });
  const res = await request(`${url}/watchlist`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await res.body.json()) as { eventIds: string[] }).eventIds).toEqual(watched.slice(0, 2));
  sync.stop();
});
