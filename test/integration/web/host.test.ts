/** The web-mode host over real HTTP on 127.0.0.1: session, origin checks, static files, API, SSE. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type RunningWebHost } from '../../../src/main/web/host.js';
import { WEB_PAGE_KEY_HEADER } from '../../../src/shared/ipc.js';
import { createFakeService, type FakeService } from './fake-service.js';
import { waitFor } from '../../support/wait.js';

const TOKEN = 'test-token-0123456789abcdefghijklmnopqrstuv';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** node:http, not fetch: tests need to forge Host and Origin headers. */
function send(
  host: RunningWebHost,
  path: string,
  opts: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** The local address to send from (any of 127.0.0.0/8 is this machine). */
    from?: string;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        path,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        localAddress: opts.from,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`timeout on ${path}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

const auth = { authorization: `Bearer ${TOKEN}` };

/** A browser's login: the session cookie and the page key from the redirect's fragment. */
async function login(on: RunningWebHost): Promise<{ cookie: string; key: string }> {
  const r = await send(on, `/${new URL(on.newLoginUrl()).search}`);
  expect(r.status).toBe(303);
  const cookie = (r.headers['set-cookie']?.[0] ?? '').split(';')[0] as string;
  const key = /#key=([\w-]+)$/.exec(r.headers.location ?? '')?.[1] as string;
  return { cookie, key };
}
const api = (host: RunningWebHost, method: string, input?: unknown, extra = {}) =>
  send(host, `/api/${method}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', ...extra },
    body: input === undefined ? undefined : JSON.stringify(input),
  });

function builtRenderer(): string {
  const root = mkdtempSync(join(tmpdir(), 'mb-web-'));
  const dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Macrobell</title><div id=root>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log("app")');
  writeFileSync(join(dir, 'assets', 'app.css'), 'body{}');
  // Outside the static folder: must never be served.
  writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET-OUTSIDE');
  return dir;
}

let service: FakeService;
let host: RunningWebHost;
beforeAll(async () => {
  service = createFakeService();
  host = await startWebHost({ service, staticDir: builtRenderer(), token: TOKEN, heartbeatMs: 50 });
});
afterAll(() => host?.close());

describe('start', () => {
  it('refuses to start without a built renderer, saying how to build it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'mb-web-empty-'));
    await expect(startWebHost({ service, staticDir: empty })).rejects.toThrow(/npm run build:web/);
  });

  it('listens on 127.0.0.1 and gives a URL carrying a fresh random login code', async () => {
    const other = await startWebHost({ service, staticDir: builtRenderer() });
    try {
      expect(other.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const code = new URL(other.url).searchParams.get('token') ?? '';
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The code in the URL is not the scripts' bearer token.
      expect(new URL(host.url).searchParams.get('token')).not.toBe(TOKEN);
    } finally {
      await other.close();
    }
  });
});

describe('session', () => {
  it('trades the one-time code in the URL for a different session value in a per-port cookie', async () => {
    const code = new URL(host.url).searchParams.get('token') as string;
    const r = await send(host, `/?token=${code}`);
    expect(r.status).toBe(303);
    // The page key travels in the fragment: no request ever carries it to a server.
    expect(r.headers.location).toMatch(/^\/#key=[A-Za-z0-9_-]{43}$/);
    const cookie = r.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    const [name, value] = (cookie.split(';')[0] as string).split('=');
    expect(name).toBe(`macrobell_session_${host.port}`);
    expect(value).not.toBe(code);
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = await send(host, '/', { headers: { cookie: `${name}=${value}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Macrobell</title>');
    // The code works once: the browser history keeps only a spent code.
    const again = await send(host, `/?token=${code}`);
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an API call that carries only the cookie, and takes it with the page key', async () => {
    const { cookie, key } = await login(host);
    const replay = await send(host, '/api/getSettings', { method: 'POST', headers: { cookie } });
    expect(replay.status).toBe(401);
    expect(replay.body).toMatch(/cookie alone is not enough/);
    const withKey = await send(host, '/api/getSettings', {
      method: 'POST',
      headers: { cookie, [WEB_PAGE_KEY_HEADER]: key },
    });
    expect(withKey.status).toBe(200);
    // The key in a query works for the push stream only (EventSource sends no headers).
    const inQuery = await send(host, `/api/getSettings?key=${key}`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(inQuery.status).toBe(401);
    const wrongKey = await send(host, '/api/getSettings', {
      method: 'POST',
      headers: { cookie, [WEB_PAGE_KEY_HEADER]: 'x'.repeat(43) },
    });
    expect(wrongKey.status).toBe(401);
  });

  it('logs out: the session is gone and the cookie cleared', async () => {
    const { cookie, key } = await login(host);
    const headers = { cookie, [WEB_PAGE_KEY_HEADER]: key };
    const out = await send(host, '/api/logout', { method: 'POST', headers });
    expect(out.status).toBe(200);
    expect(out.headers['set-cookie']?.[0]).toMatch(/Max-Age=0/);
    expect((await send(host, '/api/getSettings', { method: 'POST', headers })).status).toBe(401);
  });

  it('expires login codes after 5 minutes and idle sessions after 30, and limits wrong tries per source', async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const timed = await startWebHost({ service, staticDir: builtRenderer(), now: () => now });
    try {
      const stale = new URL(timed.newLoginUrl()).search;
      now += 5 * 60_000 + 1;
      const expired = await send(timed, `/${stale}`);
      expect(expired.status).toBe(401);
      expect(expired.body).toMatch(/expired/);
      // What to do about it, on the page itself: the terminal prints a new link on Enter.
      expect(expired.body).toContain('works once, within 5 minutes');
      expect(expired.body).toContain('press Enter in the terminal where Macrobell runs');
      expect(expired.body).toContain('<code>npm start</code>');
      expect(expired.body).toContain('start Macrobell again');
      const { cookie, key } = await login(timed);
      const headers = { cookie, [WEB_PAGE_KEY_HEADER]: key };
      now += 29 * 60_000;
      expect((await send(timed, '/api/getSettings', { method: 'POST', headers })).status).toBe(200);
      now += 30 * 60_000 + 1;
      expect((await send(timed, '/api/getSettings', { method: 'POST', headers })).status).toBe(401);
      // Another local process guesses (issue #35): its wrong tries are refused past five,
      // and the valid link still works (it used to spoil every outstanding link).
      const good = new URL(timed.newLoginUrl()).search;
      const wrong = [];
      for (let i = 0; i < 8; i++) wrong.push(await send(timed, `/?token=wrong-${i}`));
      expect(wrong.map((w) => w.status)).toEqual(Array(8).fill(401));
      expect(wrong[4]?.body).toMatch(/invalid or was already used/);
      expect(wrong[5]?.body).toMatch(/Too many wrong login links from this address/);
      const valid = await send(timed, `/${good}`);
      expect(valid.status).toBe(303);
      expect(valid.headers.location).toMatch(/^\/#key=[\w-]{43}$/);
      // After the window, that source may try again.
      now += 10 * 60_000;
      expect((await send(timed, '/?token=wrong-again')).body).toMatch(
        /invalid or was already used/,
      );
      expect((await login(timed)).key).toMatch(/^[\w-]{43}$/);
    } finally {
      await timed.close();
    }
  });

  it("renews an expired link on its page with the trader's own secret, and only with it", async () => {
    let now = Date.parse('2026-11-20T10:00:00Z');
    const PERSONAL = 'mbu_personal-token-only-the-trader-has-0123456789';
    const renewing = await startWebHost({
      service,
      staticDir: builtRenderer(),
      now: () => now,
      loginSecrets: async () => [PERSONAL],
    });
    const origin = `http://127.0.0.1:${renewing.port}`;
    const form = (secret: string, extra: Record<string, string> = {}, from?: string) =>
      send(renewing, '/login/renew', {
        from,
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin,
          ...extra,
        },
        body: new URLSearchParams({ secret }).toString(),
      });
    try {
      const stale = new URL(renewing.newLoginUrl()).search;
      now += 5 * 60_000 + 1;
      const expired = await send(renewing, `/${stale}`);
      expect(expired.status).toBe(401);
      // The page offers the form (and may post it to its own origin only).
      expect(expired.body).toContain('Link expired — get in again');
      expect(expired.body).toContain('<form method="post" action="/login/renew">');
      expect(expired.headers['content-security-policy']).toContain("form-action 'self'");
      // A browser sends `Origin: null` from a no-referrer page, which the gate refuses.
      expect(expired.headers['referrer-policy']).toBe('same-origin');
      expect(expired.body).not.toContain(PERSONAL);

      // The right secret: a session at once (cookie and page key), no code in any URL.
      const renewed = await form(PERSONAL);
      expect(renewed.status).toBe(303);
      expect(renewed.headers.location).toMatch(/^\/#key=[\w-]{43}$/);
      const cookie = (renewed.headers['set-cookie']?.[0] ?? '').split(';')[0] as string;
      const key = /#key=([\w-]+)$/.exec(renewed.headers.location ?? '')?.[1] as string;
      const settings = await send(renewing, '/api/getSettings', {
        method: 'POST',
        headers: { cookie, [WEB_PAGE_KEY_HEADER]: key },
      });
      expect(settings.status).toBe(200);

      // Anything else: refused. Issue #44: a local process guessing from a fresh loopback
      // address each time (127.0.0.2, .3, …) had five tries per address — 200 of 200
      // guesses compared. Now five wrong secrets from anywhere close the form to secrets.
      const wrong = [];
      for (let i = 0; i < 200; i++)
        wrong.push(
          await form(`${PERSONAL.slice(0, -1)}${i}`, {}, `127.0.${i >> 8}.${2 + (i % 250)}`),
        );
      expect(wrong.map((w) => w.status)).toEqual(Array(200).fill(401));
      expect(wrong[0]?.body).toMatch(/not the personal token or private key this Macrobell holds/);
      expect(wrong[0]?.headers['set-cookie']).toBeUndefined();
      const compared = wrong.filter((w) => /not the personal token/.test(w.body)).length;
      expect(compared).toBe(5);
      expect(wrong[5]?.body).toMatch(/takes none for now\. Press Enter in the terminal/);
      // Even the right secret is not compared for the window (it is not a guess it lets in)…
      expect((await form(PERSONAL)).status).toBe(401);
      // …but the lockout is not the trader's: the terminal's new link works at once, and a
      // new link opens the form again.
      expect((await login(renewing)).key).toMatch(/^[\w-]{43}$/);
      expect((await form(PERSONAL)).status).toBe(303);
      for (let i = 0; i < 5; i++) await form(`wrong-${i}`);
      expect((await form(PERSONAL)).status).toBe(401);
      now += 10 * 60_000;
      expect((await form(PERSONAL)).status).toBe(303);
      // An empty secret never matches; another site's form is refused before any check.
      expect((await form('')).status).toBe(401);
      expect((await form(PERSONAL, { origin: 'http://evil.test' })).status).toBe(403);
    } finally {
      await renewing.close();
    }
  });

  it('without secrets to check (demo), the page offers the terminal only', async () => {
    const stale = new URL(host.newLoginUrl()).search;
    const first = await send(host, `/${stale}`);
    expect(first.status).toBe(303);
    const spent = await send(host, `/${stale}`);
    expect(spent.status).toBe(401);
    expect(spent.body).not.toContain('<form');
    expect(spent.headers['content-security-policy']).toContain("form-action 'none'");
    const post = await send(host, '/login/renew', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'secret=anything',
    });
    expect(post.status).toBe(404);
    expect(post.headers['set-cookie']).toBeUndefined();
  });

  it('reopening the spent login link in a browser already signed in shows the app, not JSON', async () => {
    const link = `/${new URL(host.newLoginUrl()).search}`;
    const first = await send(host, link);
    expect(first.status).toBe(303);
    const cookie = (first.headers['set-cookie']?.[0] ?? '').split(';')[0] as string;
    const again = await send(host, link, { headers: { cookie } });
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/');
    expect(again.headers['set-cookie']).toBeUndefined();
    // Without the session, a spent link explains itself in a page, not raw JSON.
    const stranger = await send(host, link);
    expect(stranger.status).toBe(401);
    expect(stranger.headers['content-type']).toMatch(/text\/html/);
    expect(stranger.body).toContain('already used');
    expect(stranger.body).toContain('npm run web');
  });

  it("refuses another port's session cookie and answers a malformed cookie with 401", async () => {
    const other = await startWebHost({ service, staticDir: builtRenderer() });
    try {
      const login = await send(other, new URL(other.url).pathname + new URL(other.url).search);
      const otherCookie = (login.headers['set-cookie']?.[0] ?? '').split(';')[0] as string;
      expect(otherCookie).toMatch(new RegExp(`^macrobell_session_${other.port}=`));
      const value = otherCookie.split('=')[1] as string;
      for (const cookie of [otherCookie, `macrobell_session_${host.port}=${value}`]) {
        const r = await send(host, '/api/getStatus', { method: 'POST', headers: { cookie } });
        expect(r.status, cookie).toBe(401);
      }
    } finally {
      await other.close();
    }
    const malformed = await send(host, '/api/getStatus', {
      method: 'POST',
      headers: { cookie: `macrobell_session_${host.port}=%E0%A4%A` },
    });
    expect(malformed.status).toBe(401);
  });

  it('answers 401 without a session: JSON for the API, a short page for the app', async () => {
    const apiReply = await send(host, '/api/getStatus', { method: 'POST' });
    expect(apiReply.status).toBe(401);
    expect(JSON.parse(apiReply.body)).toMatchObject({
      ok: false,
      error: { error: 'unauthorized' },
    });
    const page = await send(host, '/');
    expect(page.status).toBe(401);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('npm run web');
    const wrong = await send(host, '/?token=not-the-token');
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const badCookie = await send(host, '/api/getStatus', {
      method: 'POST',
      headers: { cookie: 'macrobell_session=guess' },
    });
    expect(badCookie.status).toBe(401);
    expect(service.calls.some((c) => c.method === 'getStatus')).toBe(false);
  });

  it('refuses a foreign Origin even with a valid token (403)', async () => {
    const r = await api(host, 'getStatus', undefined, { origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    const lookalike = await api(host, 'getStatus', undefined, {
      origin: `${host.origin}.evil.example`,
    });
    expect(lookalike.status).toBe(403);
    const ok = await api(host, 'getStatus', undefined, { origin: host.origin });
    expect(ok.status).toBe(200);
  });

  it('refuses a Host that is not this machine (DNS rebinding, 403)', async () => {
    const rebound = await send(host, '/', {
      headers: { ...auth, host: `attacker.example:${host.port}` },
    });
    expect(rebound.status).toBe(403);
    const wrongPort = await send(host, '/', { headers: { ...auth, host: '127.0.0.1:1' } });
    expect(wrongPort.status).toBe(403);
    const localhost = await send(host, '/', {
      headers: { ...auth, host: `localhost:${host.port}` },
    });
    expect(localhost.status).toBe(200);
  });
});

describe('static files', () => {
  it('serves the app with the right MIME types and security headers', async () => {
    const index = await send(host, '/', { headers: auth });
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    expect(index.headers['content-security-policy']).toContain("script-src 'self'");
    expect(index.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    const js = await send(host, '/assets/app.js', { headers: auth });
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    const css = await send(host, '/assets/app.css', { headers: auth });
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('never serves files outside its folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%5csecret.txt',
    ]) {
      const r = await send(host, path, { headers: auth });
      expect(r.body, path).not.toContain('TOP-SECRET-OUTSIDE');
    }
  });

  it('answers app routes with the app and missing files with 404', async () => {
    expect((await send(host, '/news', { headers: auth })).body).toContain('Macrobell');
    expect((await send(host, '/assets/missing.js', { headers: auth })).status).toBe(404);
  });
});

describe('API', () => {
  it('calls the service with validated input and answers a RequestResult', async () => {
    const input = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-08T00:00:00.000Z' };
    const r = await api(host, 'listEventDates', input);
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(r.body)).toEqual({
      ok: true,
      value: [{ id: 'ed-1', name: 'Nonfarm Payrolls' }],
    });
    expect(service.calls.at(-1)).toEqual({ method: 'listEventDates', input });
  });

  it('answers bad input with a readable 400 and does not call the service', async () => {
    const before = service.calls.length;
    const r = await api(host, 'listPosts', { page: 0, pageSize: 'ten' });
    expect(r.status).toBe(400);
    const body = JSON.parse(r.body) as { ok: boolean; error: { error: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.error).toBe('invalid_request');
    expect(body.error.message).toMatch(/page/);
    const broken = await send(host, '/api/listPosts', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"page": 1,',
    });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error.error).toBe('invalid_json');
    expect(service.calls.length).toBe(before);
  });

  it('answers an unknown method with 404 and a GET with 405', async () => {
    const unknown = await api(host, 'dropDatabase', {});
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.error).toBe('unknown_method');
    const proto = await api(host, '__proto__', {});
    expect(proto.status).toBe(404);
    const get = await send(host, '/api/getStatus', { headers: auth });
    expect(get.status).toBe(405);
  });

  it('keeps the push stream, logout and the app files on their own methods (405 with Allow)', async () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/events', 'GET'],
      ['GET', '/api/logout', 'POST'],
      ['PUT', '/api/getStatus', 'POST'],
      ['DELETE', '/news', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const r = await send(host, path, { method, headers: auth });
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.allow, `${method} ${path}`).toBe(allow);
      expect(JSON.parse(r.body)).toMatchObject({
        ok: false,
        error: { error: 'method_not_allowed' },
      });
    }
    const head = await send(host, '/assets/app.js', { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/javascript/);
    expect(head.body).toBe('');
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(1024 * 1024 + 10) });
    const tooBig = await send(host, '/api/searchPosts', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: big,
    }).catch((err: Error) => ({ status: -1, body: err.message, headers: {} }));
    // The host may close the socket while the client still writes; either way no call happens.
    if (tooBig.status !== -1) expect(tooBig.status).toBe(413);
    expect(service.calls.some((c) => c.method === 'searchPosts')).toBe(false);
  });

  it('turns a service failure into a 500 with a one-line message and no stack', async () => {
    const err = new Error('Database is locked\n    at Store.run (/src/main/store.ts:12:3)');
    service.failNext('getCacheInfo', err);
    const r = await api(host, 'getCacheInfo');
    expect(r.status).toBe(500);
    const body = JSON.parse(r.body) as { ok: boolean; error: { message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.message).toBe('Database is locked');
    expect(r.body).not.toContain('store.ts');
  });

  it('answers openExternal without doing anything (the browser opens links)', async () => {
    const before = service.calls.length;
    const r = await api(host, 'openExternal', { url: 'https://example.com/post' });
    expect(JSON.parse(r.body)).toEqual({ ok: true, value: null });
    expect(service.calls.length).toBe(before);
    const bad = await api(host, 'openExternal', { url: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
  });
});

describe('pushes (SSE)', () => {
  it('forwards every push event by name, sends heartbeats, and lets go on disconnect', async () => {
    // the host hears each push once (its log), however many pages are open
    const baseline = service.listenerCount();
    const controller = new AbortController();
    const res = await fetch(`${host.origin}/api/events`, {
      headers: auth,
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(service.listenerCount()).toBe(baseline);
    await waitFor(() => host.openStreams() === 1, 'the stream to open');

    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      const deadline = Date.now() + 15_000;
      while (!text.includes(needle)) {
        if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(needle)} in ${text}`);
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value, { stream: true });
      }
    };
    service.emit('navigate', { type: 'settings' });
    service.emit('changes', []);
    await readUntil('event: changes');
    expect(text).toContain('event: navigate\ndata: {"type":"settings"}\n\n');
    expect(text).toContain('event: changes\ndata: []\n\n');
    await readUntil(': hb');

    controller.abort();
    await waitFor(() => host.openStreams() === 0, 'the stream to let go');
    expect(service.listenerCount()).toBe(baseline);
  });

  it('needs the session like everything else', async () => {
    const r = await send(host, '/api/events');
    expect(r.status).toBe(401);
  });

  it("logout ends the session's open stream: no push reaches a signed-out page", async () => {
    const { cookie, key } = await login(host);
    const res = await fetch(`${host.origin}/api/events?key=${key}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    await waitFor(() => host.openStreams() === 1, 'the stream to open');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const out = await send(host, '/api/logout', {
      method: 'POST',
      headers: { cookie, [WEB_PAGE_KEY_HEADER]: key },
    });
    expect(out.status).toBe(200);
    await waitFor(() => host.openStreams() === 0, 'the stream to end');
    service.emit('navigate', { type: 'settings' });
    let text = '';
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    expect(text).not.toContain('event: navigate');
  });
});
