/**
 * "Did bob get NFP, and when?" (#43): `relay log --user bob --grep nfp` on a SQLite node
 * and on two Redis nodes, with the simulator as the service sending its webhooks to the
 * relay. bob runs two desktops and ana one; CPI prints with all three live, then one of
 * bob's desktops goes offline and NFP prints. The log names each release (from the
 * calendar with the desk's keys; a control character in a name does not reach the
 * terminal) and gives one line per print per desktop of the trader: applied when and how
 * late, or "not seen". Applied times come from what each desktop reports with its presence.
 */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { logCommand } from '../../../src/relay/desk-ops/cli-ops.js';
import {
  RedisAdminStore,
  SqliteAdminStore,
} from '../../../src/relay/desk-ops/admin/admin-store.js';
import { openRelayDatabase } from '../../../src/relay/db/relay-db.js';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { UserDirectory } from '../../../src/relay/users/users.js';
import { RedisUserStore } from '../../../src/relay/users/redis-users.js';
import { startSimulator } from '../../../src/simulator/index.js';
import type { EventDate } from '../../../src/shared/domain.js';
import { plainPhrase } from '../../../src/shared/plain-text.js';
import type { TraderLog } from '../../../src/relay/desk-ops/replay/trader-log.js';
import { registerWebhook } from '../../fixtures/webhooks.js';
import { createHighRelease, simControl } from '../../support/releases.js';
import { tempDir, waitFor } from '../relay/helpers.js';
import { startRedis } from '../relay/redis-server.js';
import { startDesktop, type Desktop } from './desktops.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
const applied = (release: string, desktop: string) =>
  new RegExp(
    `^${release}  printed ${ISO}  ${desktop} \\(linux 6\\.1\\)  applied ${ISO}  \\d+\\.\\d s late$`,
  );
const notSeen = (release: string, desktop: string) =>
  new RegExp(`^${release}  printed ${ISO}  ${desktop} \\(linux 6\\.1\\)  not seen$`);
const NFP = 'Nonfarm Payrolls \\(NFP\\)';
const CPI = 'CPI \\(YoY\\)';

type Backend = 'sqlite' | 'redis';

/** A desk of one SQLite node or two Redis nodes, its traders and an admin token. */
async function startDesk(backend: Backend) {
  const sim = await startSimulator({ seed: 7, autoplay: false, speed: 0, log: () => undefined });
  cleanups.push(() => sim.close());
  const tokens: Record<string, string> = {};
  let admin = '';
  const common = {
    secret: 'trader-log-secret',
    token: 'trader-log-legacy',
    desk: { keys: { publicKey: sim.clientId, privateKey: sim.clientSecret }, authUrl: sim.authUrl },
    calendarFeed: { calendarUrl: sim.calendarUrl },
  };
  const nodes: RunningRelay[] = [];
  if (backend === 'sqlite') {
    const data = tempDir('mb-trader-log-');
    const users = new UserDirectory(openRelayDatabase(data));
    for (const n of ['bob', 'ana']) tokens[n] = users.add(n).token;
    users.db.close();
    const admins = await SqliteAdminStore.open(data);
    admin = (await admins.add('lead')).token;
    await admins.close();
    nodes.push(await startRelay({ ...common, dataDir: data, nodeName: 'node-a' }));
  } else {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const users = await RedisUserStore.open(redis.url);
    for (const n of ['bob', 'ana']) tokens[n] = (await users.add(n)).token;
    await users.close();
    const admins = await RedisAdminStore.open(redis.url);
    admin = (await admins.add('lead')).token;
    await admins.close();
    for (const name of ['node-a', 'node-b'])
      nodes.push(
        await startRelay({
          ...common,
          dataDir: tempDir('mb-trader-log-'),
          nodeName: name,
          redis: { url: redis.url },
        }),
      );
  }
  for (const n of nodes) cleanups.push(() => n.close());
  return { sim, nodes, tokens, admin };
}

async function relayLog(url: string, admin: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await logCommand([...args, '--url', url], {
    env: { MACROBELL_ADMIN_TOKEN: admin },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  expect(err).toEqual([]);
  expect(code).toBe(0);
  return out;
}

describe.each<Backend>(['sqlite', 'redis'])('relay log --user on %s', (backend) => {
  it("names each release and says when each of the trader's desktops applied it", async () => {
    const { sim, nodes, tokens, admin } = await startDesk(backend);
    const [a, b = a] = nodes as [RunningRelay, RunningRelay?];
    const inAMinute = 60_000;
    const nfp = await createHighRelease(sim.url, inAMinute, { name: 'Nonfarm Payrolls (NFP)' });
    // The service's text, printed on an operator's terminal: the bell must not ring there.
    const cpi = await createHighRelease(sim.url, inAMinute, { name: 'CPI (YoY)\u0007' });
    await registerWebhook({
      authUrl: sim.authUrl,
      apiUrl: sim.calendarUrl,
      clientId: sim.clientId,
      clientSecret: sim.clientSecret,
      url: a.webhookUrl,
    });
    const desktop = (name: string, user: string, url: string, desktopId: string) => {
      const d = startDesktop({ name, url, token: tokens[user] as string, desktopId });
      cleanups.push(() => d.stop());
      return d;
    };
    const bob1 = desktop('bob-1', 'bob', a.url, 'desk-bob-0001');
    const bob2 = desktop('bob-2', 'bob', b.url, 'desk-bob-0002');
    const ana = desktop('ana', 'ana', b.url, 'desk-ana-0001');
    for (const d of [bob1, bob2, ana]) await d.live();

    const ask = async (query: string) => {
      const res = await request(`${a.url}/admin/deliveries?${query}`, {
        headers: { authorization: `Bearer ${admin}`, accept: 'application/json' },
      });
      return { status: res.statusCode, body: (await res.body.json()) as TraderLog };
    };
    const printed = (d: Desktop, release: EventDate) =>
      d.applied.some((e) => (e.payload as { eventDateId?: string }).eventDateId === release.id);
    /** The desk knows the desktop applied the release (its report follows the applied batch). */
    const reported = async (user: string, desktopId: string, name: string) => {
      const { rows } = (await ask(`user=${user}`)).body;
      return rows.some((r) => r.desktop === desktopId && r.release === name && r.appliedAt);
    };
    const print = async (release: EventDate, value: number, at: [Desktop, string, string][]) => {
      await simControl(sim.url, 'PATCH', `/_sim/event-dates/${release.id}`, { actual: value });
      for (const [d, user, id] of at) {
        await waitFor(() => printed(d, release), `${d.name} applied it`);
        await waitFor(() => reported(user, id, plainPhrase(release.name)), `${d.name} reported it`);
      }
    };
    await print(cpi, 3.1, [
      [bob1, 'bob', 'desk-bob-0001'],
      [bob2, 'bob', 'desk-bob-0002'],
      [ana, 'ana', 'desk-ana-0001'],
    ]);
    await bob2.stop();
    await print(nfp, 256, [
      [bob1, 'bob', 'desk-bob-0001'],
      [ana, 'ana', 'desk-ana-0001'],
    ]);
    expect(printed(bob2, nfp)).toBe(false);

    // Asked of the other node on Redis: presence is the desk's, not the node's.
    const nfpOfBob = await relayLog(b.url, admin, ['--user', 'bob', '--grep', 'nfp']);
    expect(nfpOfBob).toEqual([
      expect.stringMatching(applied(NFP, 'desk-bob-0001')),
      expect.stringMatching(notSeen(NFP, 'desk-bob-0002')),
    ]);
    const allOfBob = await relayLog(a.url, admin, ['--user', 'bob']);
    expect(allOfBob).toEqual([
      expect.stringMatching(applied(CPI, 'desk-bob-0001')),
      expect.stringMatching(applied(CPI, 'desk-bob-0002')),
      expect.stringMatching(applied(NFP, 'desk-bob-0001')),
      expect.stringMatching(notSeen(NFP, 'desk-bob-0002')),
    ]);
    expect(allOfBob.join(' ')).not.toMatch(/\p{Cc}/u);
    expect(await relayLog(a.url, admin, ['--user', 'ana', '--grep', 'NFP'])).toEqual([
      expect.stringMatching(applied(NFP, 'desk-ana-0001')),
    ]);
    expect(await relayLog(a.url, admin, ['--user', 'bob', '--grep', 'GDP'])).toEqual([
      'No print matching "GDP" in that range for a desktop of bob the desk knows.',
    ]);

    // A name the desk does not know is said so (a typo is not "bob saw nothing").
    expect(await ask('user=bbo')).toEqual({
      status: 404,
      body: expect.objectContaining({ message: 'No trader named "bbo" on this desk' }),
    });

    // The route checks its input: no user, a bad range.
    expect(await ask('grep=NFP')).toEqual({
      status: 400,
      body: expect.objectContaining({ message: 'deliveries: user is required' }),
    });
    const badRange = (await ask('user=bob&since=yesterday')).body as unknown as { message: string };
    expect(badRange.message).toMatch(/since and until must/);
  }, 90_000);
});
