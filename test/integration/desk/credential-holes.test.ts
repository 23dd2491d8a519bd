/**
 * The credential holes of issue #14 on the real app core: service URLs cannot be pointed
 * elsewhere without the private key, plain http only to this machine, files 0600.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRequest } from '../../../src/shared/ipc.js';
import { startCore, type CoreHarness } from '../core/harness.js';

let core: CoreHarness;
beforeAll(async () => {
  core = await startCore();
  await core.service.api.setCredentials({
    publicKey: 'demo-public',
    privateKey: 'demo-private',
    serviceUrls: { auth: core.sim.authUrl, calendar: core.sim.calendarUrl, news: core.sim.newsUrl },
  });
});
afterAll(() => core?.close());

describe('service URLs while keys are stored', () => {
  it('refuses a URL change without the private key, so Test connection sends the keys nowhere new', async () => {
    // A listener standing in for a script's own server: it must never hear from the app.
    let heard = 0;
    const listener = createServer((_req, res) => {
      heard++;
      res.end();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    const evil = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    try {
      await expect(
        core.service.api.updateSettings({
          serviceUrls: { auth: evil, calendar: evil, news: evil },
        }),
      ).rejects.toMatchObject({ code: 'keys_required', message: /private key/ });
      const test = await core.service.api.testConnection();
      expect(test.ok).toBe(true);
      expect(heard).toBe(0);
      expect((await core.service.api.getSettings()).serviceUrls.auth).toBe(core.sim.authUrl);
    } finally {
      listener.close();
    }
  });

  it('changes them together with the keys', async () => {
    const urls = {
      auth: `${core.sim.authUrl}/`,
      calendar: core.sim.calendarUrl,
      news: core.sim.newsUrl,
    };
    await core.service.api.setCredentials({
      publicKey: 'demo-public',
      privateKey: 'demo-private',
      serviceUrls: urls,
    });
    const saved = JSON.parse(readFileSync(join(core.dataDir, 'settings.json'), 'utf8')) as {
      serviceUrls: unknown;
    };
    expect(saved.serviceUrls).toEqual(urls);
    // Other settings still change freely.
    await core.service.api.updateSettings({ theme: 'dark' });
  });
});

describe('relay URL while a relay token is stored', () => {
  it('moves the token to a new URL only when the token is entered again', async () => {
    const api = core.service.api;
    await api.setRelay({ url: 'https://relay-one.example.com', token: 'personal-token-123456' });
    for (const attempt of [
      () => api.setRelay({ url: 'https://listener.example.com' }),
      () => api.updateSettings({ relayUrl: 'https://listener.example.com' }),
    ])
      await expect(attempt()).rejects.toMatchObject({ code: 'keys_required' });
    expect((await api.getSettings()).relayUrl).toBe('https://relay-one.example.com');
    await api.setRelay({ url: 'https://relay-two.example.com', token: 'personal-token-123456' });
    expect((await api.getSettings()).relayUrl).toBe('https://relay-two.example.com');
    await api.setRelay({ url: null }); // back to polling needs nothing
    expect((await api.getSettings()).relayUrl).toBeNull();
  });
});

describe('plain http', () => {
  it('is refused for a non-loopback service or relay URL, with a message', () => {
    const remote = 'http://example.com';
    for (const input of [
      { serviceUrls: { auth: remote, calendar: remote, news: remote } },
      { relayUrl: 'http://relay.example.com' },
    ])
      expect(() => parseRequest('updateSettings', input)).toThrow(
        /https:\/\/.*only allowed for this machine/,
      );
    expect(() =>
      parseRequest('updateSettings', { relayUrl: 'http://127.0.0.1:8787' }),
    ).not.toThrow();
    expect(() =>
      parseRequest('updateSettings', { relayUrl: 'https://relay.example.com' }),
    ).not.toThrow();
  });
});

describe('data folder', () => {
  it('keeps the database and log files readable by the user only', () => {
    const files = readdirSync(core.dataDir, { recursive: true, encoding: 'utf8' })
      .map((f) => join(core.dataDir, f))
      .filter((f) => statSync(f).isFile() && /\.(db|db-wal|db-shm|log)$/.test(f));
    expect(files.length).toBeGreaterThan(1);
    for (const f of files) expect(statSync(f).mode & 0o077, f).toBe(0);
  });
});

describe('keys while keys are stored', () => {
  it('are replaced only with the current private key', async () => {
    const attacker = { publicKey: 'attacker-public', privateKey: 'attacker-private' };
    await expect(core.service.api.setCredentials(attacker)).rejects.toMatchObject({
      code: 'keys_required',
      message: /current private key/,
    });
    await expect(
      core.service.api.setCredentials({ ...attacker, currentPrivateKey: 'a-wrong-guess' }),
    ).rejects.toMatchObject({ code: 'keys_required' });
    expect((await core.service.api.getCredentials()).maskedPublicKey).not.toMatch(/attacker/);
    const stored = await core.secrets.get('privateKey');
    await core.service.api.setCredentials({
      publicKey: 'demo-public',
      privateKey: 'demo-private-2',
      currentPrivateKey: stored as string,
    });
    expect(await core.secrets.get('privateKey')).toBe('demo-private-2');
  });

  it('are removed only with the current private key (else: remove, then store any keys and URLs)', async () => {
    for (const proof of [undefined, { currentPrivateKey: 'a-wrong-guess' }]) {
      await expect(core.service.api.clearCredentials(proof)).rejects.toMatchObject({
        code: 'keys_required',
        message: /Removing the stored API keys needs the current private key/,
      });
    }
    expect(await core.secrets.get('privateKey')).toBe('demo-private-2');
    // The attack the rule stops: with the keys still stored, new URLs still need the key.
    await expect(
      core.service.api.setCredentials({
        publicKey: 'attacker-public',
        privateKey: 'attacker-private',
        serviceUrls: {
          auth: 'https://evil.example',
          calendar: 'https://evil.example',
          news: 'https://evil.example',
        },
      }),
    ).rejects.toMatchObject({ code: 'keys_required' });
    await core.service.api.clearCredentials({ currentPrivateKey: 'demo-private-2' });
    expect(await core.secrets.get('privateKey')).toBeNull();
  });
});
