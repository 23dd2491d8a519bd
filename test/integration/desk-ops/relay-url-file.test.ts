/**
 * DATA/relay-url, where `relay status / log / replay --data DIR` find the relay: written 0600
 * at start (also over a wider file an older relay left), and kept when the relay stops — a
 * command then names the URL that does not answer, instead of guessing :8787.
 */
import { statSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relayCommand, spawnRelayCli, stopAll } from '../desk/processes.js';
import { tempDir } from '../relay/helpers.js';

describe('DATA/relay-url', () => {
  it('is 0600, narrowed if it was wider, and stays when the relay stops', async () => {
    const data = tempDir('mb-relay-url-');
    const file = join(data, 'relay-url');
    writeFileSync(file, 'http://127.0.0.1:1\n', { mode: 0o644 });
    const relay = await spawnRelayCli(['--port', '0', '--data', data], {
      MACROBELL_RELAY_SECRET: 'relay-url-secret',
      MACROBELL_RELAY_TOKEN: 'relay-url-token',
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(`${relay.url}\n`);

    await stopAll([relay]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(`${relay.url}\n`);
    const status = await relayCommand(['status', '--data', data], {
      MACROBELL_ADMIN_TOKEN: 'mba_any',
    });
    expect(status.code).not.toBe(0);
    expect(status.stderr).toContain(relay.url);
  }, 60_000);
});
