/**
 * A web desktop reports its version in presence as the Electron app does: the web host
 * passes package.json's version, so the stream request a desk-mode core sends to its relay
 * carries `x-macrobell-app-version: <version>`, not "unknown".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { tempDir, waitFor } from '../relay/helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

it('the web host sends package.json’s version as x-macrobell-app-version', async () => {
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  // A stand-in relay that records the presence headers and answers nothing useful.
  const seen: string[] = [];
  const relay = createServer((req, res) => {
    const v = req.headers['x-macrobell-app-version'];
    if (typeof v === 'string') seen.push(v);
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"stand-in"}');
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  cleanups.push(() => relay.close());
  const url = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;

  const ui = tempDir();
  writeFileSync(join(ui, 'index.html'), '<!doctype html><title>Macrobell</title>');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main/web/cli.ts', '--port', '0', '--data', tempDir()],
    {
      env: {
        ...process.env,
        MACROBELL_WEB_UI_DIR: ui,
        MACROBELL_RELAY_URL: url,
        MACROBELL_RELAY_TOKEN: 'web-version-token',
        MACROBELL_PUBLIC_KEY: '',
        MACROBELL_PRIVATE_KEY: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(
    () => seen.length > 0,
    `a request with the presence headers (output: ${out})`,
    60_000,
  );
  expect(seen[0]).toBe(version);
  expect(seen[0]).not.toBe('unknown');
}, 90_000);
