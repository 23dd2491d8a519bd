/** Real processes for the desk tests: the simulator CLI, the relay CLI and its subcommands. */
import { execFile } from 'node:child_process';
import { exited, nodeArgs, spawnCli, type Proc } from '../../support/spawn-cli.js';
import { request } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';

export const DESK_PUBLIC = 'desk-public-key';
/** Distinctive, so a leak anywhere (stdout, logs, database pages) is found by a search. */
export const DESK_PRIVATE = 'desk-PRIVATE-key-7f3a9c21e8b4';

export { spawnCli, type Proc };

export function spawnSimulator(): Promise<Proc> {
  return spawnCli(
    'src/simulator/cli.ts',
    ['--port', '0', '--seed', '3', '--client-id', DESK_PUBLIC, '--client-secret', DESK_PRIVATE],
    {},
    /^simulator listening on (\S+)\n/,
  );
}

/** The env a relay child runs with: nothing inherited that would change its secrets. */
export const relayEnv = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  MACROBELL_RELAY_SECRET: '',
  MACROBELL_RELAY_TOKEN: '',
  MACROBELL_PUBLIC_KEY: '',
  MACROBELL_PRIVATE_KEY: '',
  ...extra,
});

export function spawnRelayCli(args: string[], env: NodeJS.ProcessEnv): Promise<Proc> {
  return spawnCli('src/relay/cli.ts', args, relayEnv(env), /^relay listening on (\S+)\n/);
}

export function serviceFlags(simUrl: string): string[] {
  return [
    '--auth-url',
    `${simUrl}/auth`,
    '--calendar-url',
    `${simUrl}/calendar`,
    '--news-url',
    `${simUrl}/news`,
  ];
}

/**
 * The desk relay on a free port, on `data`, reading the service at the simulator `sim`:
 * `relay --port 0 --data DATA FLAGS… <the service's URLs>`.
 */
export function spawnDeskRelay(
  sim: Proc,
  data: string,
  flags: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<Proc> {
  return spawnRelayCli(['--port', '0', '--data', data, ...flags, ...serviceFlags(sim.url)], env);
}

/** Run `relay <args>` to completion. */
export function relayCommand(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...nodeArgs('src/relay/cli.ts'), ...args],
      { encoding: 'utf8', env: { ...process.env, ...relayEnv(env) }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
    else child.stdin?.end();
  });
}

/**
 * `relay register` or `relay rotate-secret`: points the service's webhooks (at the simulator
 * `sim`) at the running `relay`, with the secret kept in `data`.
 */
export function relayWebhookCommand(
  command: 'register' | 'rotate-secret',
  relay: Proc,
  data: string,
  sim: Proc,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return relayCommand(
    [command, '--public-url', relay.url, '--data', data, ...serviceFlags(sim.url)],
    env,
  );
}

export { exited };

/** Stop children (SIGTERM) and wait until each has exited. */
export async function stopAll(procs: (Proc | undefined)[]): Promise<void> {
  const live = procs.filter((p): p is Proc => p !== undefined);
  for (const p of live) p.child.kill('SIGTERM');
  await Promise.all(live.map((p) => exited(p.child)));
}

/**
 * A suite's simulator, started before its tests; `running` holds it and whatever the tests
 * start beside it (relays), all stopped after the suite.
 */
export function simulatorForSuite(): { readonly sim: Proc; running: Proc[] } {
  const running: Proc[] = [];
  let sim: Proc | undefined;
  beforeAll(async () => {
    sim = await spawnSimulator();
    running.push(sim);
  }, 60_000);
  afterAll(() => stopAll(running));
  return {
    get sim() {
      if (!sim) throw new Error('the simulator is started in beforeAll');
      return sim;
    },
    running,
  };
}

/** `relay users add NAME`: the new trader's token (the command's last stdout line). */
export async function addDeskUser(data: string, name: string): Promise<string> {
  const r = await relayCommand(['users', 'add', name, '--data', data]);
  expect(r.code, r.stderr).toBe(0);
  const token = r.stdout.trimEnd().split('\n').at(-1) as string;
  expect(token).toMatch(/^mbu_[A-Za-z0-9_-]{43}$/);
  return token;
}

/** A trader asks the desk relay for an access token of one scope. */
export async function requestDeskToken(url: string, bearer: string, scope = 'calendar') {
  const res = await request(`${url}/token`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: `scope=${scope}`,
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
  };
}
