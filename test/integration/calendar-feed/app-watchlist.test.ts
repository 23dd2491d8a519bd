// @clock any-day — it reads the demo schedule of the day it runs; CI runs it on the clock matrix
/**
 * The app side of the webcal feed: in desk mode, watching events in the app core reaches
 * the desk relay (a real relay in process, the simulator as the service), Settings gets the
 * feed URL from the relay, and that URL serves the watched events.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { startRelay } from '../../../src/relay/server.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { parseIcs } from './ics.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

async function setup(env: 'desk' | 'demo') {
  const sim = await startSimulator({ seed: 6, autoplay: false, speed: 0, log: () => undefined });
  cleanups.push(() => sim.close());
  const relayData = tmp('mb-feed-app-relay-');
  const relayOptions = {
    dataDir: relayData,
    secret: 'feed-app-secret',
    token: 'feed-app-legacy-token',
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl },
  };
  let relay = await startRelay(relayOptions);
  cleanups.push(() => relay.close());
  /** The relay goes away and comes back (same port) with its watch lists emptied. */
  const restoreRelayFromOldBackup = async () => {
    const port = relay.port;
    await relay.close();
    const raw = openRelayDatabase(relayData);
    raw.exec('DELETE FROM calendar_watchlists');
    raw.close();
    relay = await startRelay({ ...relayOptions, port });
  };
  const db = openRelayDatabase(relayData);
  cleanups.push(async () => void db.close());
  const { token } = new UserDirectory(db).add('trader');
  const app = await createAppService({
    dataDir: tmp('mb-feed-app-'),
    secretStore: new MemorySecretStore(),
    logFile: null,
    logLevel: 'silent',
    mode: env === 'demo' ? 'demo' : 'auto',
    demo: { autoplay: false },
    env:
      env === 'desk'
        ? {
            MACROBELL_RELAY_URL: relay.url,
            MACROBELL_RELAY_TOKEN: token,
            MACROBELL_AUTH_URL: sim.authUrl,
            MACROBELL_CALENDAR_URL: sim.calendarUrl,
            MACROBELL_NEWS_URL: sim.newsUrl,
          }
        : {},
  });
  cleanups.push(() => app.stop());
  const relayWatchlist = async () => {
    const res = await request(`${relay.url}/watchlist`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await res.body.json()) as { eventIds: string[] }).eventIds;
  };
  const eventIds = [...new Set([...sim.state.eventDates.values()].map((ed) => ed.eventId))];
  return { sim, relay, app, relayWatchlist, eventIds, restoreRelayFromOldBackup };
}

describe('watch list sync to the desk relay', () => {
  it('uploads every change to the watch list, and the feed URL serves those events', async () => {
    const { app, relayWatchlist, eventIds, sim } = await setup('desk');
    await app.start();
    const [a, b] = eventIds as [string, string];
    await app.api.setWatched({ eventId: a, watched: true });
    await app.api.setWatched({ eventId: b, watched: true });
    await vi.waitFor(async () => expect((await relayWatchlist()).sort()).toEqual([a, b].sort()), {
      timeout: 10_000,
      interval: 100,
    });

    const info = await app.api.getCalendarFeed();
    if (!info.desk) throw new Error('expected desk mode');
    expect(info.error).toBeNull();
    expect(info.webcal).toMatch(/^webcal:\/\/127\.0\.0\.1:\d+\/calendar\/mbf_[\w-]+\.ics$/);
    expect(info.watchlist).toMatchObject({ count: 2, pending: false, error: null });
    const feed = await request(info.url as string);
    const { events } = parseIcs(await feed.body.text());
    const uids = new Set(events.map((e) => e.get('UID')));
    const dates = [...sim.state.eventDates.values()].filter((ed) => ed.eventId === a);
    expect(dates.length).toBeGreaterThan(0);
    for (const ed of dates) expect(uids.has(`${ed.id}@macrobell`)).toBe(true);

    await app.api.setWatched({ eventId: a, watched: false });
    await vi.waitFor(async () => expect(await relayWatchlist()).toEqual([b]), {
      timeout: 10_000,
      interval: 100,
    });

    const rotated = await app.api.rotateCalendarFeed();
    if (!rotated.desk) throw new Error('expected desk mode');
    expect(rotated.url).not.toBe(info.url);
    const old = await request(info.url as string);
    await old.body.text();
    expect(old.statusCode).toBe(404);
  });

  it('uploads the list again when the app reconnects to a relay that lost it', async () => {
    const { app, relayWatchlist, eventIds, restoreRelayFromOldBackup } = await setup('desk');
    await app.start();
    const watched = eventIds[2] as string;
    await app.api.setWatched({ eventId: watched, watched: true });
    await vi.waitFor(async () => expect(await relayWatchlist()).toEqual([watched]), {
      timeout: 10_000,
      interval: 100,
    });
    await restoreRelayFromOldBackup();
    await vi.waitFor(async () => expect(await relayWatchlist()).toEqual([watched]), {
      timeout: 30_000,
      interval: 200,
    });
  }, 60_000);

  it('outside desk mode explains where the feed comes from and uploads nothing', async () => {
    const { app, relayWatchlist, eventIds } = await setup('demo');
    await app.start();
    await app.api.setWatched({ eventId: eventIds[0] as string, watched: true });
    const info = await app.api.getCalendarFeed();
    expect(info).toEqual({ desk: false, message: expect.stringMatching(/Desk relay/) });
    expect(await relayWatchlist()).toEqual([]);
  });
});
