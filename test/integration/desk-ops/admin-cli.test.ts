/**
 * `relay admins …` and `relay status` against a running relay process: by --url, and by the
 * data folder alone (the relay writes the URL it listens on into DATA/relay-url).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDeskUser, relayCommand, spawnRelayCli, stopAll, type Proc } from '../desk/processes.js';
import { post, tempDir, waitFor } from '../relay/helpers.js';
import { startDesktop, type Desktop } from './desktops.js';

const data = tempDir('mb-admin-cli-');
let relay: Proc;
let desktop: Desktop | null = null;
beforeAll(async () => {
  relay = await spawnRelayCli(['--port', '0', '--data', data], { LOG_LEVEL: 'warn' });
}, 60_000);
afterAll(async () => {
  await desktop?.stop();
  await stopAll([relay]);
});

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

    // Without --url: the relay running with that data folder, on the port it picked (not :8787).
    expect(relay.url).not.toMatch(/:8787$/);
    const found = await relayCommand(['status', '--data', data], {
      MACROBELL_ADMIN_TOKEN: admin,
      MACROBELL_RELAY_URL: '',
    });
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toMatch(/Traders:\n {2}ana +never connected/);
    const foundLog = await relayCommand(['log', '--since', '1h', '--data', data], {
      MACROBELL_ADMIN_TOKEN: admin,
      MACROBELL_RELAY_URL: '',
    });
    expect(foundLog.code, foundLog.stderr).toBe(0);

    // The delivery log: what arrived, and by how many desktops it was applied.
    const secret = (await relayCommand(['secrets', 'show', '--data', data])).stdout.match(
      /webhook path secret: (\S+)/,
    )?.[1];
    // A desktop with no cursor gets what arrives from now on: it connects first.
    desktop = startDesktop({
      name: 'ana',
      url: relay.url,
      token: trader,
      desktopId: 'desk-ana-0001',
    });
    await desktop.live();
    const adminEnv = { MACROBELL_ADMIN_TOKEN: admin };
    await waitFor(async () => {
      const r = await relayCommand(['status', '--url', relay.url], adminEnv);
      return /ana +connected since/.test(r.stdout);
    }, "ana's desktop on relay status");
    for (const type of ['calendar.test.one', 'calendar.test.two'])
      expect((await post(`${relay.url}/hooks/${secret}`, JSON.stringify({ type }))).status).toBe(
        204,
      );
    let last = '';
    const log = await waitFor(async () => {
      const r = await relayCommand(['log', '--since', '1h', '--url', relay.url], adminEnv);
      last = r.stdout + r.stderr;
      return r.stdout.match(/applied by 1 of 1 desktops/g)?.length === 2 ? r : null;
    }, 'both events applied by the one desktop').catch((err: Error) => {
      throw new Error(`${err.message}; last: ${last}; applied ${desktop?.applied.length}`);
    });
    expect(log.stdout).toMatch(/calendar\.test\.one +applied by 1 of 1[\s\S]*calendar\.test\.two/);
    const bad = await relayCommand(['log', '--since', 'yesterday', '--url', relay.url], adminEnv);
    expect(bad.stderr).toContain('answered 400: since and until must be ISO 8601');

    const list = await relayCommand(['admins', 'list', '--data', data]);
    expect(list.stdout).toMatch(/^lead +created /m);
    expect((await relayCommand(['admins', 'revoke', 'lead', '--data', data])).code).toBe(0);
    const after = await relayCommand(['status', '--url', relay.url], {
      MACROBELL_ADMIN_TOKEN: admin,
    });
    expect(after.stderr).toContain('answered 401');
    expect((await relayCommand(['admins', 'frob', '--data', data])).code).toBe(2);
    // 17 relay commands, each a Node start of about 1.5 s of CPU: on a 2-core machine
    // loaded eight times over (CI beside other jobs) each took 12–17 s, 120 s was not enough
  }, 360_000);
});
