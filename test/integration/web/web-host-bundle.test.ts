// @clock any-moment — starts the demo but reads none of its schedule
/**
 * Issue #45, item 3: `npm run web` (and `npm start` where Electron cannot run) starts the
 * web host from its bundle in out/web-host with plain node, not its sources under tsx (which
 * compiled and resolved the host's modules on every start: 2–4 s of a first run on a loaded
 * machine). The bundle finds the UI and package.json from where it lives, and it is rebuilt
 * when a source it was built from, or package.json, is newer than it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the scripts folder, without types
import * as hostBuild from '../../../scripts/web-host-build.mjs';
import { appRoot } from '../../../src/main/web/app-root.js';
import { tempDir, waitFor } from '../relay/helpers.js';

const root = resolve(import.meta.dirname, '../../..');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('the web host bundle', () => {
  it('starts with plain node and serves the UI', async () => {
    await hostBuild.ensureWebHost(root);
    expect(hostBuild.webHostStale(root)).toBe(false);
    const ui = tempDir();
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>bundle probe</title>');
    const child = spawn(
      process.execPath,
      [hostBuild.webHostEntry(root), '--demo', '--port', '0', '--data', tempDir()],
      { env: { ...process.env, MACROBELL_WEB_UI_DIR: ui }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGTERM');
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /web UI on (\S+)/.test(out), `the login URL (output: ${out})`, 60_000);
    const login = /web UI on (\S+)/.exec(out)![1]!;
    // the login link sets the session cookie and sends the browser on to the app
    const entered = await fetch(login, { redirect: 'manual' });
    const cookie = entered.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const next = new URL(entered.headers.get('location') ?? '/', login);
    const page = await fetch(next, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('bundle probe');
  }, 90_000);

  it('finds the app’s folder from its sources and from the bundle', () => {
    expect(appRoot(join(root, 'src', 'main', 'web'))).toBe(root);
    expect(appRoot(join(root, 'out', 'web-host'))).toBe(root);
  });

  it('is stale when a source it was built from or package.json is newer, or one is gone', () => {
    const fake = tempDir();
    const build = join(fake, 'out', 'web-host', 'b1');
    mkdirSync(build, { recursive: true });
    mkdirSync(join(fake, 'src'));
    const at = (file: string, seconds: number) => utimesSync(join(fake, file), seconds, seconds);
    expect(hostBuild.webHostStale(fake)).toBe(true); // never built
    writeFileSync(join(fake, 'package.json'), '{}');
    writeFileSync(join(fake, 'src', 'a.ts'), '');
    writeFileSync(join(build, 'cli.mjs'), '');
    writeFileSync(join(build, 'inputs.json'), '["src/a.ts"]');
    expect(hostBuild.webHostStale(fake)).toBe(true); // built, but not made the current one
    writeFileSync(join(fake, 'out', 'web-host', 'current'), 'b1');
    expect(hostBuild.webHostEntry(fake)).toBe(join(build, 'cli.mjs'));
    at('package.json', 1_000);
    at('src/a.ts', 1_000);
    at('out/web-host/b1/cli.mjs', 2_000);
    expect(hostBuild.webHostStale(fake)).toBe(false);
    at('src/a.ts', 3_000);
    expect(hostBuild.webHostStale(fake)).toBe(true);
    at('src/a.ts', 1_000);
    at('package.json', 3_000);
    expect(hostBuild.webHostStale(fake)).toBe(true);
    at('package.json', 1_000);
    writeFileSync(join(build, 'inputs.json'), '["src/a.ts", "src/gone.ts"]');
    expect(hostBuild.webHostStale(fake)).toBe(true);
  });

  it('two builds at once leave one whole current bundle', async () => {
    await Promise.all([hostBuild.buildWebHost(root), hostBuild.buildWebHost(root)]);
    expect(hostBuild.webHostStale(root)).toBe(false);
    const entry = hostBuild.webHostEntry(root) as string;
    expect(readFileSync(entry, 'utf8')).toContain('web UI on');
  }, 90_000);

  it('a new build carries its compiled code, and `npm run web` starts from it', async () => {
    await hostBuild.buildWebHost(root);
    const entry = hostBuild.webHostEntry(root) as string;
    // filled by the build: the first start after an install compiles nothing it can read
    expect(readdirSync(hostBuild.compileCacheOf(entry)).length).toBeGreaterThan(0);
    const ui = tempDir();
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>cache probe</title>');
    const child = spawn(
      process.execPath,
      [join(root, 'scripts/web.mjs'), '--demo', '--port', '0', '--data', tempDir()],
      {
        // Node.js reports each module it finds compiled (or not) in the cache on stderr
        env: { ...process.env, MACROBELL_WEB_UI_DIR: ui, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGTERM');
    });
    let out = '';
    let log = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    await waitFor(() => /web UI on /.test(out), `the login URL (output: ${out})`, 60_000);
    expect(log).toContain(`cache for ${pathToFileURL(entry).href} was accepted`);
  }, 120_000);
});
