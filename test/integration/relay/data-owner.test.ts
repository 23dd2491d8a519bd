/**
 * The systemd unit's user after `relay keys set` and `relay users add` run as root: a
 * throw-away system user owns the data folder (as the unit's StateDirectory= makes it),
 * root runs the documented commands, and the relay started with the unit's own ExecStart
 * as that user reads the keys and the traders — its gateway serves a trader. A keys file
 * the relay's user cannot read (root-owned 0600, as older relays' CLI left it) is reported
 * as a permission problem with the chown that fixes it, never as "not valid JSON".
 *
 * Needs root (useradd, runuser): it fails with that message otherwise.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { exited, waitFor } from './helpers.js';

const USER = `mbtest${randomBytes(3).toString('hex')}`;
let uid = -1;
let gid = -1;
let sim: RunningSimulator;
const running: ChildProcess[] = [];
/** Folders given a traverse bit for the throw-away user, with the modes to put back. */
const opened: [string, number][] = [];

/**
 * The user must reach Node and this checkout, wherever they are (a CI clone under /root, a
 * Node unpacked in a 0700 temp folder): each folder on the way that others cannot enter gets
 * o+x (enter, not list) for the test, and its mode back afterwards.
 */
function letOthersTraverse(paths: string[]): void {
  for (const p of paths) {
    for (let dir = resolve(p); ; dir = dirname(dir)) {
      const mode = statSync(dir).mode & 0o7777;
      if ((mode & 0o001) === 0 && !opened.some(([d]) => d === dir)) {
        opened.push([dir, mode]);
        chmodSync(dir, mode | 0o001);
      }
      if (dirname(dir) === dir) break;
    }
  }
}

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error(
      'test/integration/relay/data-owner.test.ts needs root (it adds a throw-away user with useradd and runs the relay as it with runuser): run it as root, e.g. `sudo npx vitest run test/integration/relay/data-owner.test.ts`',
    );
  const add = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', '--user-group', USER], { encoding: 'utf8' }); // prettier-ignore
  expect(add.status, add.stderr).toBe(0);
  const ids = spawnSync('id', [USER], { encoding: 'utf8' }).stdout;
  uid = Number(/uid=(\d+)/.exec(ids)?.[1]);
  gid = Number(/gid=(\d+)/.exec(ids)?.[1]);
  letOthersTraverse([process.cwd(), dirname(process.execPath), tmpdir()]);
  sim = await startSimulator({ port: 0, seed: 3, autoplay: false, log: () => undefined });
}, 60_000);

afterAll(async () => {
  for (const c of running) {
    c.kill('SIGTERM');
    await exited(c);
  }
  await sim?.close();
  spawnSync('userdel', [USER]);
  for (const [dir, mode] of opened.reverse()) chmodSync(dir, mode);
});

/** A data folder owned by the throw-away user, mode 0700 (StateDirectory= with UMask=0077). */
function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mb-owner-'));
  chownSync(dir, uid, gid);
  chmodSync(dir, 0o700);
  return dir;
}

/** `npm run relay -- ARGS` as root (this process's user). */
function asRoot(args: string[], input?: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/relay/cli.ts', ...args], {
    input,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, MACROBELL_PUBLIC_KEY: '', MACROBELL_PRIVATE_KEY: '' },
  });
}

/** The unit's ExecStart, run as the throw-away user, with a free port and this data folder. */
function serviceAsUser(
  data: string,
): Promise<{ child: ChildProcess; url: string; out: () => string }> {
  const unit = readFileSync('deploy/macrobell-relay.service', 'utf8');
  const exec = (/^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '').trim().split(/\s+/);
  const args = exec.slice(exec.indexOf('src/relay/cli.ts') + 1);
  args[args.indexOf('--port') + 1] = '0';
  args[args.indexOf('--data') + 1] = data;
  const flags = ['--auth-url', sim.authUrl, '--calendar-url', sim.calendarUrl, '--news-url', sim.newsUrl]; // prettier-ignore
  const child = spawn(
    'runuser',
    ['-u', USER, '--', process.execPath, '--import', 'tsx', 'src/relay/cli.ts', ...args, ...flags],
    {
      env: { PATH: process.env.PATH, HOME: data, NODE_ENV: 'production', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.push(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the relay exited ${code}: ${out}`)));
    void waitFor(() => /^relay listening on (\S+)$/m.exec(out), 'the relay as the user', 45_000)
      .then((m) => resolve({ child, url: (m as RegExpExecArray)[1] as string, out: () => out }))
      .catch(reject);
  });
}

describe('the data folder belongs to the relay’s user', () => {
  it('keys set and users add as root write as the folder’s owner; the unit’s relay as that user serves', async () => {
    const data = dataFolder();
    const keys = asRoot(['keys', 'set', '--data', data], `${sim.clientId}\n${sim.clientSecret}\n`);
    expect(keys.status, keys.stderr).toBe(0);
    expect(keys.stderr).toContain(`running as ${USER} (the owner of ${data})`);
    const users = asRoot(['users', 'add', 'ada', '--data', data]);
    expect(users.status, users.stderr).toBe(0);
    const token = users.stdout.trim().split('\n').at(-1) as string;
    for (const f of ['provider-keys.json', 'relay.db']) {
      const st = statSync(join(data, f));
      expect([f, st.uid, st.gid, st.mode & 0o777]).toEqual([f, uid, gid, 0o600]);
    }

    const relay = await serviceAsUser(data);
    const res = await request(`${relay.url}/service/calendar/en/api/v1/categories`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, await res.body.text()).toBe(200);
    expect(relay.out()).not.toMatch(/not valid JSON|permission denied|EACCES/);
    expect(relay.out()).not.toContain(sim.clientSecret);
  }, 90_000);

  it('a keys file the relay’s user cannot read is a permission problem, with the chown that fixes it', async () => {
    const data = dataFolder();
    // What the CLI used to leave: root-owned 0600 in the user's folder.
    writeFileSync(
      join(data, 'provider-keys.json'),
      JSON.stringify({ publicKey: sim.clientId, privateKey: sim.clientSecret }),
      { mode: 0o600 },
    );
    const failed = await serviceAsUser(data).then(
      () => '',
      (err: unknown) => (err as Error).message,
    );
    const file = join(data, 'provider-keys.json');
    expect(failed).toMatch(/exited 1/);
    expect(failed).toContain(`cannot read ${file}: permission denied`);
    expect(failed).toContain(`belongs to root (mode 0600) and the relay runs as ${USER}`);
    expect(failed).toContain(`sudo chown ${USER}:${USER} ${file}`);
    expect(failed).not.toMatch(/not valid JSON/);
    expect(failed).not.toContain(sim.clientSecret);
  }, 90_000);
});
