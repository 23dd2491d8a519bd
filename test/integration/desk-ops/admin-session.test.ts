/**
 * The admin page's session cookie is not the admin token: signing in sets
 * `mb_admin=name.expiry.mac` (HttpOnly, SameSite=Strict, Secure behind X-Forwarded-Proto:
 * https, 8 h), which opens the page until it expires or the admin is revoked — at once —
 * and a cookie with another name, expiry or MAC opens nothing. Its key is a secret of its
 * own (DATA/admin-session.key): the legacy desktop token and a copy of the store sign none.
 */
import { createHmac } from 'node:crypto';
import { statSync } from 'node:fs';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { adminKeyFile } from '../../../src/relay/desk-ops/admin/admin-session-key.js';
import { SqliteAdminStore } from '../../../src/relay/desk-ops/admin/admin-store.js';
import { startRelay } from '../../../src/relay/server.js';
import { tempDir } from '../relay/helpers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('the admin session cookie', () => {
  it('holds no token, lasts 8 h, ends when the admin is revoked, and cannot be forged', async () => {
    let clock = Date.UTC(2026, 0, 5, 9, 0, 0);
    const data = tempDir('mb-admin-session-');
    const relay = await startRelay({
      dataDir: data,
      secret: 'admin-session-secret',
      token: 'admin-session-relay-token',
      now: () => clock,
    });
    cleanups.push(() => relay.close());
    const admins = SqliteAdminStore.open(data, () => clock);
    cleanups.push(() => admins.close());
    const { token } = await admins.add('lead');

    const signIn = await request(`${relay.url}/admin/session`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-proto': 'https',
      },
      body: `token=${encodeURIComponent(token)}`,
    });
    await signIn.body.dump();
    expect(signIn.statusCode).toBe(303);
    const setCookie = String(signIn.headers['set-cookie']);
    expect(setCookie).not.toContain(token);
    expect(setCookie).not.toContain(token.slice(4, 20));
    expect(setCookie).toMatch(
      /^mb_admin=[A-Za-z0-9_-]+\.\d{13}\.[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/admin; Max-Age=28800; Secure$/,
    );
    const cookie = setCookie.split(';')[0] as string;
    const page = async (c: string) => {
      const r = await request(`${relay.url}/admin`, {
        headers: { cookie: c, accept: 'text/html' },
      });
      await r.body.dump();
      return r.statusCode;
    };
    expect(await page(cookie)).toBe(200);

    // Forged: another admin's name, a later expiry, another MAC.
    const [name, expires, mac] = cookie.slice('mb_admin='.length).split('.') as [
      string,
      string,
      string,
    ];
    const other = Buffer.from('boss').toString('base64url');
    expect(await page(`mb_admin=${other}.${expires}.${mac}`)).toBe(401);
    expect(await page(`mb_admin=${name}.${Number(expires) + 3_600_000}.${mac}`)).toBe(401);
    expect(await page(`mb_admin=${name}.${expires}.${'A'.repeat(43)}`)).toBe(401);
    expect(await page(`mb_admin=${token}`)).toBe(401); // the raw token is not a session

    // Expiry: 8 h.
    clock += 8 * 3_600_000 - 1000;
    expect(await page(cookie)).toBe(200);
    clock += 2000;
    expect(await page(cookie)).toBe(401);

    // Revocation ends a live session at once.
    clock -= 4 * 3_600_000;
    expect(await page(cookie)).toBe(200);
    await admins.revoke('lead');
    expect(await page(cookie)).toBe(401);
  }, 60_000);

  it("cannot be forged with the legacy desktop token and the admin's stored hash", async () => {
    const data = tempDir('mb-admin-key-');
    const legacy = 'admin-key-relay-token';
    const options = { dataDir: data, secret: 'admin-key-secret', token: legacy };
    let relay = await startRelay(options);
    cleanups.push(() => relay.close());
    const admins = SqliteAdminStore.open(data);
    cleanups.push(() => admins.close());
    const { token } = await admins.add('lead');
    const page = async (c: string) => {
      const r = await request(`${relay.url}/admin`, {
        headers: { cookie: c, accept: 'text/html' },
      });
      await r.body.dump();
      return r.statusCode;
    };
    // What a desktop (the legacy token) and a copy of the store (the hash) can compute.
    const hash = (await admins.activeTokenHash('lead')) as string;
    const key = createHmac('sha256', legacy).update('macrobell admin session v1').digest();
    const expires = Date.now() + 3_600_000;
    const mac = createHmac('sha256', key).update(`lead\n${expires}\n${hash}`).digest('base64url');
    const name = Buffer.from('lead').toString('base64url');
    expect(await page(`mb_admin=${name}.${expires}.${mac}`)).toBe(401);
    // The key is the folder's own, readable by the relay's user alone, and kept: a session
    // signed before a restart still opens the page after it.
    expect(statSync(adminKeyFile(data)).mode & 0o777).toBe(0o600);
    const signIn = await request(`${relay.url}/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(token)}`,
    });
    await signIn.body.dump();
    const cookie = String(signIn.headers['set-cookie']).split(';')[0] as string;
    expect(await page(cookie)).toBe(200);
    await relay.close();
    relay = await startRelay(options);
    expect(await page(cookie)).toBe(200);
  }, 60_000);
});
