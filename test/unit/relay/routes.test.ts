/**
 * Relay routes on their own: each module mounted alone on a loopback server over a real
 * SQLite log and the desk's real token check, with only the parts it names; and the error
 * catalogue every route answers from.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplyError } from '../../../src/node/http/server/reply-error.js';
import { Router, type Route } from '../../../src/node/http/server/router.js';
import { startDesk, type Desk } from '../../../src/relay/desk/desk.js';
import { RelayErrors } from '../../../src/relay/errors.js';
import { sendReplyError } from '../../../src/relay/http-util.js';
import { BodyBudget } from '../../../src/relay/ingest/ingest.js';
import { healthRoute } from '../../../src/relay/routes/health.js';
import { ingestRoute } from '../../../src/relay/routes/ingest.js';
import { pageRoute } from '../../../src/relay/routes/page.js';
import { tokenRoute } from '../../../src/relay/routes/token.js';
import { SqliteEventLog } from '../../../src/relay/log/sqlite-log.js';
import { SqliteUserStore } from '../../../src/relay/users/users.js';
import { MemoryDeskLimits } from '../../../src/relay/desk/desk-limits.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { watchUnknownSecrets } from '../../../src/relay/ingest/unknown-secrets.js';

const TOKEN = 'legacy-token';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function parts() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mb-routes-'));
  const db = openRelayDatabase(dataDir);
  const events = new SqliteEventLog(db, () => 1_000, 0);
  const desk: Desk = startDesk({
    dataDir,
    users: new SqliteUserStore(db),
    legacyToken: TOKEN,
    keys: null,
    authUrl: '',
    limits: new MemoryDeskLimits(),
    rotated: { accepts: () => false, close: async () => undefined },
  });
  closers.push(async () => {
    await desk.close();
    await events.close();
    db.close();
  });
  return { events, desk };
}

/** One route on a loopback server; what it throws is answered as the relay answers it. */
async function serve<C>(route: Route<C>, ctx: C): Promise<string> {
  const router = new Router([route]);
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    Promise.resolve()
      .then(() => {
        const { route: r, params } = router.find(req.method ?? 'GET', url.pathname);
        return r.handle({ ctx, req, res, url, params });
      })
      .catch((err: unknown) => {
        if (err instanceof ReplyError) sendReplyError(res, err);
        else res.destroy();
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const bearer = { authorization: `Bearer ${TOKEN}` };

describe('relay routes, one at a time', () => {
  it('/events/page pages what the log holds, for a bearer of the desk only', async () => {
    const { events, desk } = parts();
    for (const n of [1, 2, 3]) await events.append(Buffer.from(`{"type":"t${n}"}`), 't', {});
    const url = await serve(pageRoute, { events, desk });

    const refused = await fetch(`${url}/events/page`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');

    const first = await fetch(`${url}/events/page?limit=2`, { headers: bearer });
    expect(first.headers.get('cache-control')).toBe('no-store');
    const page = (await first.json()) as { events: { body: unknown }[]; hasMore: boolean };
    expect(page.events.map((e) => e.body)).toEqual([{ type: 't1' }, { type: 't2' }]);
    expect(page.hasMore).toBe(true);

    const bad = await fetch(`${url}/events/page?limit=5000`, { headers: bearer });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: 'invalid_request',
      message: 'after must be an event id and limit an integer 1–1000',
    });
  });

  it('/token is not there unless the desk hands out service tokens', async () => {
    const { desk } = parts();
    const off = await serve(tokenRoute, { desk, issueServiceTokens: false });
    expect((await fetch(`${off}/token`, { method: 'POST', headers: bearer })).status).toBe(404);
    const on = await serve(tokenRoute, { desk, issueServiceTokens: true });
    // The bearer first, then the method: a stranger learns nothing about the route.
    expect((await fetch(`${on}/token`)).status).toBe(401);
    const get = await fetch(`${on}/token`, { headers: bearer });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('/hooks/{secret} stores a webhook for the secret only, and asks for POST only then', async () => {
    const { events, desk } = parts();
    const counters = { rejected: 0 };
    const posts: string[] = [];
    const unknownSecrets = watchUnknownSecrets({
      node: () => 'node-a',
      post: async (text) => void posts.push(text),
    });
    const ctx = {
      secret: 's3cret',
      // A rotation window: the old secret is still accepted.
      retiringSecrets: ['0ld-secret'],
      unknownSecrets,
      desk,
      events,
      bodyBudget: new BodyBudget(1 << 20),
      counters,
    };
    const url = await serve(ingestRoute, ctx);
    const post = (path: string, body: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });

    expect((await post('/hooks/s3cret', '{"type":"release"}')).status).toBe(204);
    // %-escaped, the same secret.
    expect((await post('/hooks/s3cre%74', '{"type":"again"}')).status).toBe(204);
    // A wrong secret is 404 whatever the method: nothing says the path exists.
    expect((await post('/hooks/wrong', '{"type":"x"}')).status).toBe(404);
    expect((await fetch(`${url}/hooks/wrong`)).status).toBe(404);
    expect((await post('/hooks/wrong-again', '{"type":"x"}')).status).toBe(404);
    // Each refused delivery is counted (not the GET: register asks that way); the chat
    // hears of the episode once.
    expect(unknownSecrets.count).toBe(2);
    expect(posts).toEqual([
      expect.stringMatching(
        /^:warning: Relay node node-a refused a webhook with an unknown secret/,
      ),
    ]);
    expect((await post('/hooks/0ld-secret', '{"type":"retiring"}')).status).toBe(204);
    const get = await fetch(`${url}/hooks/s3cret`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');

    const bad = await post('/hooks/s3cret', '{"no":"type"}');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('invalid_notification');
    expect(counters.rejected).toBe(1);
    expect((await events.after('0', 10)).map((e) => e.body.toString())).toEqual([
      '{"type":"release"}',
      '{"type":"again"}',
      '{"type":"retiring"}',
    ]);
  });

  it('/healthz reports the store and its last id', async () => {
    const { events } = parts();
    await events.append(Buffer.from('{"type":"t"}'), 't', {});
    const url = await serve(healthRoute, { events });
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, backend: 'sqlite', lastId: '1' });
  });
});

describe('the relay error catalogue', () => {
  it('lists each answer once: a snake_case code, an error status and a message', () => {
    const made = Object.entries(RelayErrors).map(([name, make]) => {
      // Sample arguments for the entries that take some (a status, a detail…).
      const err = (make as (...a: unknown[]) => ReplyError)(400, 'x');
      return { name, status: err.status, code: err.code, message: err.message };
    });
    for (const e of made) {
      expect(e.code, e.name).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      expect(e.status, e.name).toBeGreaterThanOrEqual(400);
      expect(e.message, e.name).not.toBe('');
    }
    const keys = made.map((e) => `${e.status} ${e.code} ${e.message}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('makes a fresh error each time, so marking one to drain first marks no other', () => {
    const a = RelayErrors.NOT_FOUND().afterDrain();
    expect(a.drainFirst).toBe(true);
    expect(RelayErrors.NOT_FOUND().drainFirst).toBe(false);
  });
});
