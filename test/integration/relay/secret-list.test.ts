/**
 * A rotation window in the environment: `MACROBELL_RELAY_SECRET=new,old`. The relay CLI
 * stores a delivery carrying either secret (the new first: what `register` registers),
 * 404s any other, and refuses to start on a malformed list with a line that says why.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnRelayCli, stopAll, type Proc } from '../desk/processes.js';
import { pageAll, post, tempDir } from './helpers.js';
import { nodeArgs } from '../../support/spawn-cli.js';

const NEW = 'newSecret-0123456789';
const OLD = 'oldSecret-0123456789';
const TOKEN = 'list-token-0123456789';
const running: Proc[] = [];
afterAll(() => stopAll(running));

describe('a list of webhook secrets', () => {
  it('stores deliveries to the new and the old secret, and only those', async () => {
    const relay = await spawnRelayCli(['--port', '0', '--data', tempDir('mb-secret-list-')], {
      MACROBELL_RELAY_SECRET: `${NEW},${OLD}`,
      MACROBELL_RELAY_TOKEN: TOKEN,
    });
    running.push(relay);
    expect((await post(`${relay.url}/hooks/${NEW}`, '{"type":"t","n":1}')).status).toBe(204);
    expect((await post(`${relay.url}/hooks/${OLD}`, '{"type":"t","n":2}')).status).toBe(204);
    expect((await post(`${relay.url}/hooks/${NEW},${OLD}`, '{"type":"t","n":3}')).status).toBe(404);
    expect((await pageAll(relay.url, TOKEN)).map((e) => e.body.n)).toEqual([1, 2]);
  }, 60_000);

  it('refuses a malformed list at start, saying what a list is', () => {
    const r = spawnSync(
      process.execPath,
      [...nodeArgs('src/relay/cli.ts'), '--port', '0', '--data', tempDir('mb-secret-bad-')],
      {
        encoding: 'utf8',
        timeout: 30_000,
        env: {
          ...process.env,
          MACROBELL_RELAY_SECRET: `${NEW},short`,
          MACROBELL_RELAY_TOKEN: TOKEN,
        },
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /MACROBELL_RELAY_SECRET must be .*or a comma-separated list of such secrets \(new,old\)/,
    );
  }, 60_000);
});
