/** `relay admins …` and `relay status` against a running relay process. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDeskUser, relayCommand, spawnRelayCli, stopAll, type Proc } from '../desk/processes.js';
import { tempDir } from '../relay/helpers.js';

const data = tempDir('mb-admin-cli-');
let relay: Proc;
beforeAll(async () => {
  relay = await spawnRelayCli(['--port', '0', '--data', data], { LOG_LEVEL: 'warn' });
}, 60_000);
afterAll(() => stopAll([relay]));

const lastLine = (s: string) => s.trimEnd().split('\n').at(-1) as string;

describe('relay admins and relay status', () => {
  it('adds an admin whose token opens status; a trader token and a revoked one do not', async () => {
    const added = await relayCommand(['admins', 'add', 'lead', '--data', data]);
    expect(added.code, added.stderr).toBe(0);
    const admin = lastLine(added.stdout);
    expect(admin).toMatch(/^mba_[A-Za-z0-9_-]{43}$/);
    expect((await relayCommand(['admins', 'add', 'lead', '--data', data])).stderr).toContain(
      'exists',
    );
    const trader = await addDeskUser(data, 'ana');

    const status = await relayCommand(['status', '--url', relay.url], {
      MACROBELL_ADMIN_TOKEN: admin,
    });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/Traders:\n {2}ana +never connected/);
    expect(status.stdout).toContain('Nodes:');

    const refused = await relayCommand(['status', '--url', relay.url], {
      MACROBELL_ADMIN_TOKEN: trader,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('answered 403');
    expect((await relayCommand(['status', '--url', relay.url])).stderr).toContain(
      'set MACROBELL_ADMIN_TOKEN',
    );

    const list = await relayCommand(['admins', 'list', '--data', data]);
    expect(list.stdout).toMatch(/^lead +created /m);
    expect((await relayCommand(['admins', 'revoke', 'lead', '--data', data])).code).toBe(0);
    const after = await relayCommand(['status', '--url', relay.url], {
      MACROBELL_ADMIN_TOKEN: admin,
    });
    expect(after.stderr).toContain('answered 401');
    expect((await relayCommand(['admins', 'frob', '--data', data])).code).toBe(2);
  }, 60_000);
});
