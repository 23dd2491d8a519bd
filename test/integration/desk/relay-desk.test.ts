// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * Desk mode on real processes: the simulator CLI as the service, the relay CLI with the
 * desk's keys, traders added and revoked with `relay users` while the relay runs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../relay/helpers.js';
import {
  addDeskUser,
  requestDeskToken,
  stopAll,
  DESK_PRIVATE,
  DESK_PUBLIC,
  exited,
  relayCommand,
  spawnDeskRelay,
  spawnSimulator,
  type Proc,
} from './processes.js';

let sim: Proc;
let relay: Proc;
const data = tempDir('mb-desk-');
const LEGACY = 'legacy-single-desk-token';

const token = requestDeskToken;

/** News tokens the service issued: other parts of the relay may exchange calendar tokens meanwhile. */
async function newsExchanges(): Promise<number> {
  const res = await request(`${sim.url}/_sim/state`);
  return ((await res.body.json()) as { tokensIssued: { news: number } }).tokensIssued.news;
}

const addUser = (name: string) => addDeskUser(data, name);

beforeAll(async () => {
  sim = await spawnSimulator();
  relay = await spawnDeskRelay(sim, data, ['--issue-service-tokens', '--token-rate', '1000'], {
    MACROBELL_PUBLIC_KEY: DESK_PUBLIC,
    MACROBELL_PRIVATE_KEY: DESK_PRIVATE,
    MACROBELL_RELAY_TOKEN: LEGACY,
  });
}, 90_000);
afterAll(() => stopAll([relay, sim]));

describe('desk relay', () => {
  let alice = '';
  let bob = '';

  it('adds traders while it runs; each token is printed once and only its hash is stored', async () => {
    [alice, bob] = await Promise.all([addUser('alice'), addUser('bob')]);
    expect(alice).not.toBe(bob);
    const list = await relayCommand(['users', 'list', '--data', data]);
    expect(list.stdout).toMatch(/^alice\s+created \S+\s+last seen never$/m);
    expect(list.stdout).toMatch(/^bob\s/m);
    expect(list.stdout).not.toContain(alice);
    const dup = await relayCommand(['users', 'add', 'alice', '--data', data]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/exists/);
  }, 120_000);

  it('answers 100 concurrent token requests with at most one upstream exchange', async () => {
    const before = await newsExchanges();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => token(relay.url, i % 2 ? alice : bob, 'news')),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect(new Set(answers.map((a) => a.json().access_token)).size).toBe(1);
    // the contract: concurrent callers share one exchange (none if a token is cached already)
    expect((await newsExchanges()) - before).toBeLessThanOrEqual(1);
  }, 60_000);

  it('hands alice a calendar token the service accepts, with the seconds it has left', async () => {
    const r = await token(relay.url, alice, 'calendar');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const body = r.json() as { access_token: string; token_type: string; expires_in: number };
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.expires_in).toBeLessThanOrEqual(86_400);
    const api = await request(`${sim.url}/calendar/en/api/v1/categories`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(api.statusCode).toBe(200);
    expect(((await api.body.json()) as unknown[]).length).toBeGreaterThan(0);
  });

  it('refuses a bad scope, a bad token and a bad method with clear errors', async () => {
    const bad = await token(relay.url, alice, 'trading');
    expect(bad.status).toBe(400);
    expect(bad.json().message).toMatch(/calendar or news/);
    expect((await token(relay.url, 'mbu_not-a-user-token', 'calendar')).status).toBe(401);
    const get = await request(`${relay.url}/token`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(get.statusCode).toBe(405);
    await get.body.dump();
  });

  it('keeps MACROBELL_RELAY_TOKEN working as a single user', async () => {
    expect((await token(relay.url, LEGACY, 'calendar')).status).toBe(200);
    const page = await request(`${relay.url}/events/page`, {
      headers: { authorization: `Bearer ${LEGACY}` },
    });
    expect(page.statusCode).toBe(200);
    await page.body.dump();
  });

  it('revoking bob closes his open stream within a second and refuses his token', async () => {
    const stream = await new Promise<{ closed: Promise<void>; status: number }>(
      (resolve, reject) => {
        const req = httpRequest(
          `${relay.url}/events`,
          { headers: { authorization: `Bearer ${bob}`, accept: 'text/event-stream' } },
          (res) => {
            res.resume();
            const closed = new Promise<void>((r) => res.once('close', () => r()));
            resolve({ closed, status: res.statusCode ?? 0 });
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(stream.status).toBe(200);
    const revoke = await relayCommand(['users', 'revoke', 'bob', '--data', data]);
    expect(revoke.code, revoke.stderr).toBe(0);
    const revokedAt = Date.now();
    await stream.closed;
    // The relay polls revocations every 250 ms; a second is the promise to the user.
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect((await token(relay.url, bob, 'calendar')).status).toBe(401);
    for (const path of ['/events', '/events/page']) {
      const res = await request(`${relay.url}${path}`, {
        headers: { authorization: `Bearer ${bob}` },
      });
      expect(res.statusCode, path).toBe(401);
      await res.body.dump();
    }
    expect((await token(relay.url, alice, 'calendar')).status).toBe(200);
    const list = await relayCommand(['users', 'list', '--data', data]);
    expect(list.stdout).toMatch(/^bob\s.*REVOKED/m);
    expect(list.stdout).toMatch(/^alice\s+created \S+\s+last seen 20/m);
  }, 60_000);

  it('writes one audit line per token handed out, without the token', async () => {
    await vi.waitFor(() =>
      expect(relay.stdout()).toMatch(/"audit":"token_issued","user":"alice","scope":"calendar"/),
    );
    const audits = relay
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"audit":"token_issued"'));
    expect(audits.length).toBeGreaterThanOrEqual(103);
    expect(relay.stdout()).not.toContain(alice);
  });

  it('keeps the private key out of its output, logs and database, and its files 0600', async () => {
    relay.child.kill('SIGTERM');
    expect(await exited(relay.child)).toBe(0);
    const output = `${relay.stdout()}${relay.stderr()}`;
    expect(output).not.toContain(DESK_PRIVATE);
    expect(output).not.toContain(LEGACY);
    for (const name of readdirSync(data)) {
      const file = join(data, name);
      expect(statSync(file).mode & 0o077, name).toBe(0);
      expect(readFileSync(file).includes(DESK_PRIVATE), name).toBe(false);
    }
  });
});
