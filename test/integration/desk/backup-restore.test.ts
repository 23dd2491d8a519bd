// @clock any-moment — the simulator CLI runs as the desk's service, but no webhook is registered with it and the test reads no schedule
/**
 * `relay backup` of a running SQLite desk relay, then the data folder wiped, `relay
 * restore` and the relay started again: the users, the admin, the watch list, every
 * acknowledged webhook and the webhook secret are back, and a trader resuming from the last
 * id it saw gets the next webhook once and nothing it already had.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { openSseReader, pageAll, post, tempDir, waitFor } from '../relay/helpers.js';
import {
  DESK_PRIVATE,
  DESK_PUBLIC,
  exited,
  relayCommand,
  spawnDeskRelay,
  simulatorForSuite,
} from './processes.js';

const suite = simulatorForSuite();
const { running } = suite;

const KEYS = { MACROBELL_PUBLIC_KEY: DESK_PUBLIC, MACROBELL_PRIVATE_KEY: DESK_PRIVATE };
const lastLine = (out: string) => out.trimEnd().split('\n').at(-1) as string;

describe('relay backup and restore', () => {
  it('brings back users, admins, watch lists, every acknowledged webhook; a trader resumes without a duplicate', async () => {
    const data = tempDir('mb-backup-data-');
    const relay = await spawnDeskRelay(suite.sim, data, [], KEYS);
    running.push(relay);
    const ana = await relayCommand(['users', 'add', 'ana', '--data', data]);
    expect(ana.code, ana.stderr).toBe(0);
    const anaToken = lastLine(ana.stdout);
    const lead = await relayCommand(['admins', 'add', 'lead', '--data', data]);
    expect(lead.code, lead.stderr).toBe(0);
    const bearer = { authorization: `Bearer ${anaToken}` };
    const put = await request(`${relay.url}/watchlist`, {
      method: 'PUT',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ eventIds: ['6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'] }),
    });
    expect(put.statusCode, await put.body.text()).toBe(200);
    // Ana's calendar feed link: made with the node's feed key, which the backup must keep.
    const feedRes = await request(`${relay.url}/calendar/feed-url`, { headers: bearer });
    expect(feedRes.statusCode).toBe(200);
    const feed = ((await feedRes.body.json()) as { url: string }).url;
    const { secret } = JSON.parse(readFileSync(join(data, 'relay-secrets.json'), 'utf8')) as {
      secret: string;
    };
    for (let n = 1; n <= 5; n++)
      expect(
        (await post(`${relay.url}/hooks/${secret}`, JSON.stringify({ type: 't', n }))).status,
      ).toBe(204);
    // The trader's stream has them all: the id it would resume from.
    const stream = await openSseReader(`${relay.url}/events`, { ...bearer, 'last-event-id': '0' });
    await waitFor(() => stream.frames.filter((f) => f.id).length === 5, 'five frames');
    const lastSeen = stream.frames.filter((f) => f.id).at(-1)?.id as string;
    stream.close();

    // Backed up while the relay runs.
    const backup = tempDir('mb-backup-to-');
    rmSync(backup, { recursive: true });
    const made = await relayCommand(['backup', '--data', data, '--to', backup]);
    expect(made.code, made.stderr).toBe(0);
    expect(readdirSync(backup).sort()).toEqual(
      ['admin-session.key', 'calendar-feed.key', 'relay-secrets.json', 'relay.db'].sort(),
    );
    for (const f of readdirSync(backup)) expect(statSync(join(backup, f)).mode & 0o777).toBe(0o600);

    // The node is lost: stopped, its folder gone.
    relay.child.kill('SIGTERM');
    await exited(relay.child);
    rmSync(data, { recursive: true });
    const restored = await relayCommand(['restore', '--from', backup, '--data', data]);
    expect(restored.code, restored.stderr).toBe(0);
    // Never over a database: refused, nothing written.
    const again = await relayCommand(['restore', '--from', backup, '--data', data]);
    expect({ code: again.code, err: again.stderr }).toEqual({
      code: 1,
      err: expect.stringMatching(/already has a relay\.db.*Nothing was written/),
    });

    const back = await spawnDeskRelay(suite.sim, data, [], KEYS);
    running.push(back);
    expect(back.stdout()).not.toMatch(/Generated a new/);
    const users = await relayCommand(['users', 'list', '--data', data]);
    expect(users.stdout).toMatch(/^ana /m);
    const admins = await relayCommand(['admins', 'list', '--data', data]);
    expect(admins.stdout).toMatch(/lead/);
    const list = await request(`${back.url}/watchlist`, { headers: bearer });
    expect(await list.body.json()).toMatchObject({
      eventIds: ['6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'],
    });
    const sameFeed = await request(`${back.url}/calendar/feed-url`, { headers: bearer });
    expect(((await sameFeed.body.json()) as { url: string }).url.replace(back.url, relay.url)).toBe(
      feed,
    );
    expect((await pageAll(back.url, anaToken)).map((e) => e.body.n)).toEqual([1, 2, 3, 4, 5]);

    // The trader resumes where it was: the next webhook once, nothing it already had.
    const resumed = await openSseReader(`${back.url}/events`, {
      ...bearer,
      'last-event-id': lastSeen,
    });
    expect(
      (await post(`${back.url}/hooks/${secret}`, JSON.stringify({ type: 't', n: 6 }))).status,
    ).toBe(204);
    await waitFor(() => resumed.frames.some((f) => f.data.includes('"n":6')), 'the new webhook');
    expect(
      resumed.frames
        .filter((f) => f.id)
        .map((f) => JSON.parse(f.data) as { n: number })
        .map((b) => b.n),
    ).toEqual([6]);
    resumed.close();
  }, 120_000);
});
