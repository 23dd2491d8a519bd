import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load as parse } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => await import('./fake-electron.js'));

import * as fake from './fake-electron.js';
import { CSP } from '../../../src/shared/csp.js';
import { SECURITY_HEADERS } from '../../../src/main/web/static.js';
import { contentTypeOf } from '../../../src/node/http/static-files.js';
import { APP_URL, appFileFor, handleAppRequest } from '../../../src/main/electron/app-protocol.js';
import { serveAppProtocol } from '../../../src/main/electron/security.js';

let root: string;
let outside: string;
beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), 'macrobell-protocol-'));
  root = join(base, 'renderer');
  outside = join(base, 'secret.txt');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Macrobell</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'worker-abc.mjs'), 'export {}');
  writeFileSync(join(root, 'assets', 'chime.wav'), 'RIFF');
  writeFileSync(outside, 'keys');
});
afterAll(() => rmSync(join(root, '..'), { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handleAppRequest({ url, method }, root);

describe('the app:// protocol', () => {
  it('serves the built renderer with its MIME type and the CSP header', async () => {
    const page = await get(APP_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<title>Macrobell</title>');
    const script = await get('app://macrobell/assets/index-abc.js?v=1');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
    expect((await get('app://macrobell/')).status).toBe(200);
  });

  it('types every file as the web host does (one MIME table: .mjs modules, .wav sounds)', async () => {
    const served = (url: string) => get(url).then((r) => r.headers.get('content-type'));
    expect(await served('app://macrobell/assets/worker-abc.mjs')).toBe(
      'text/javascript; charset=utf-8',
    );
    expect(await served('app://macrobell/assets/chime.wav')).toBe(contentTypeOf('chime.wav'));
    expect(contentTypeOf('chime.wav')).toBe('audio/wav');
    expect(contentTypeOf('x.unknown-kind')).toBe('application/octet-stream');
  });

  it('never serves a file outside the renderer folder, and puts the CSP on errors too', async () => {
    for (const url of [
      'app://macrobell/../secret.txt',
      'app://macrobell/%2e%2e/secret.txt',
      'app://macrobell/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://macrobell/%00index.html',
      'app://macrobell/%E0%A4%A',
      'app://other-host/index.html',
      'file:///etc/passwd',
      'app://macrobell/missing.js',
      'app://macrobell/assets',
    ]) {
      const r = await get(url);
      expect(r.status, url).toBe(404);
      expect(await r.text()).toBe('Not found');
      expect(r.headers.get('content-security-policy')).toBe(CSP);
    }
    expect(appFileFor('app://macrobell/assets/../index.html', root)).toBe(join(root, 'index.html'));
    expect(readFileSync(outside, 'utf8')).toBe('keys');
  });

  it('answers only GET and HEAD', async () => {
    expect((await get(APP_URL, 'POST')).status).toBe(405);
    const head = await get(APP_URL, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('is what the session serves app:// with', async () => {
    fake.resetFakeElectron();
    serveAppProtocol(fake.session.defaultSession as never, root);
    const handler = fake.session.defaultSession.protocol.handlers.get('app');
    const r = await handler!(new Request(APP_URL));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toBe(CSP);
  });
});

describe('one CSP', () => {
  it('is the one web mode sends and the one index.html carries (a meta cannot set frame-ancestors)', () => {
    expect(SECURITY_HEADERS['content-security-policy']).toBe(CSP);
    const html = readFileSync(join(process.cwd(), 'src/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CSP.replace(" frame-ancestors 'none';", ''));
  });
});

describe('Electron fuses (electron-builder.yml)', () => {
  it('turn off the ways to run the app as Node and load code from outside the asar', () => {
    const config = parse(readFileSync(join(process.cwd(), 'electron-builder.yml'), 'utf8')) as {
      electronFuses: Record<string, boolean>;
      asar: boolean;
    };
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true); // the integrity fuses need the app in an asar
  });

  it('hold because the main process never needs Node mode (no fork, no ELECTRON_RUN_AS_NODE)', async () => {
    const { readdirSync } = await import('node:fs');
    const files = (readdirSync(join(process.cwd(), 'src/main'), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join(process.cwd(), 'src/main', f), 'utf8'));
    for (const text of files) {
      expect(text).not.toMatch(/child_process['"][\s\S]*\bfork\(/);
      expect(text).not.toMatch(/ELECTRON_RUN_AS_NODE['"]?\s*[:=]\s*['"]?1/);
    }
  });
});
