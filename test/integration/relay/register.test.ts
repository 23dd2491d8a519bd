/** `relay register` against the simulator: registration, the 444 two-URL limit, --replace. */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { startRelay } from '../../../src/relay/server.js';
import { nodeArgs } from '../../support/spawn-cli.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 2, autoplay: false, log: () => undefined });
});
afterAll(() => sim.close());

// Async: the simulator runs in this process and must keep answering while the CLI runs.
function register(
  args: string[],
  data: string,
  secret = 'reg-secret',
  checked = false,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        ...nodeArgs('src/relay/cli.ts'),
        'register',
        '--data',
        data,
        '--auth-url',
        sim.authUrl,
        '--calendar-url',
        sim.calendarUrl,
        '--news-url',
        sim.newsUrl,
        // No relay answers at the example URLs: the acceptance check has a test of its own.
        ...(checked ? [] : ['--unchecked']),
        ...args,
      ],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          MACROBELL_PUBLIC_KEY: sim.clientId,
          MACROBELL_PRIVATE_KEY: sim.clientSecret,
          MACROBELL_RELAY_SECRET: secret,
        },
        timeout: 30_000,
      },
      (err, stdout, stderr) =>
        resolve({
          code: err ? ((err as { code?: number }).code ?? null) : 0,
          out: `${stdout}${stderr}`,
        }),
    );
  });
}

describe('relay register', () => {
  it('registers, explains the two-URL limit, and replaces one on request', async () => {
    const data = mkdtempSync(join(tmpdir(), 'mb-reg-'));
    const first = await register(['--public-url', 'https://one.example', '--calendar'], data);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/calendar: registered https:\/\/one\.example\/hooks\/<secret>/);
    expect(first.out).not.toContain('reg-secret');
    // Another desk's relay, with its own secret: listed later, its secret must stay hidden.
    const other = await register(
      ['--public-url', 'https://two.example', '--calendar'],
      data,
      'other-desk-secret-9',
    );
    expect(other.code).toBe(0);
    const third = await register(['--public-url', 'https://three.example', '--calendar'], data);
    expect(third.code).toBe(3);
    expect(third.out).toMatch(/two webhook URLs and both are taken/);
    expect(third.out).not.toContain('other-desk-secret-9');
    expect(third.out).toContain('https://two.example/hooks/<secret>');
    const id = sim.state.webhooks.calendar[0]?.id as string;
    // Which listed URL is this relay's (masked URLs of one host look alike).
    expect(third.out).toMatch(/one\.example\/hooks\/<secret> {2}\(this relay's current secret\)/);
    expect(third.out).not.toMatch(/two\.example\/hooks\/<secret> {2}\(this relay/);
    // The exact command per registered id, for this API, with the flags this run was given.
    const flags = `--data ${data} --auth-url ${sim.authUrl} --calendar-url ${sim.calendarUrl} --news-url ${sim.newsUrl} --unchecked`;
    for (const w of sim.state.webhooks.calendar)
      expect(third.out).toContain(
        `npm run relay -- register ${flags} --public-url https://three.example --calendar --replace ${w.id}`,
      );
    // Run as printed (its words after `npm run relay --`).
    const printed =
      new RegExp(`npm run relay -- register (.*) --replace ${id}$`, 'm').exec(third.out)?.[1] ?? '';
    const words = printed.split(' ');
    expect(words.slice(0, 9)).toEqual([
      '--data',
      data,
      '--auth-url',
      sim.authUrl,
      '--calendar-url',
      sim.calendarUrl,
      '--news-url',
      sim.newsUrl,
      '--unchecked',
    ]);
    const replaced = await register([...words.slice(9), '--replace', id], data);
    expect(replaced.code).toBe(0);
    expect(sim.state.webhooks.calendar.map((w) => w.url)).toEqual([
      'https://two.example/hooks/other-desk-secret-9',
      'https://three.example/hooks/reg-secret',
    ]);
  }, 120_000);

  it('asks the running relay first: a secret its node answers 404 is never registered, nor written', async () => {
    const relayData = mkdtempSync(join(tmpdir(), 'mb-reg-node-'));
    const relay = await startRelay({
      dataDir: relayData,
      secret: 'node-secret-1',
      token: 'tok-12345678',
    });
    try {
      const before = sim.state.webhooks.news.length;
      // A shell without the node's environment, in an empty folder: a new secret would be made.
      const data = mkdtempSync(join(tmpdir(), 'mb-reg-shell-'));
      const refused = await register(['--public-url', relay.url, '--news'], data, '', true);
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(
        /hooks\/<secret> answers 404: the running relay does not accept this secret\. Nothing was registered or written/,
      );
      expect(sim.state.webhooks.news.length).toBe(before);
      expect(existsSync(join(data, 'relay-secrets.json'))).toBe(false);
      // With the node's secret: registered.
      const ok = await register(['--public-url', relay.url, '--news'], data, 'node-secret-1', true);
      expect(ok.code, ok.out).toBe(0);
      expect(sim.state.webhooks.news.map((w) => w.url)).toContain(
        `${relay.url}/hooks/node-secret-1`,
      );
    } finally {
      await relay.close();
    }
  }, 60_000);

  it('refuses to run without keys in the environment', () => {
    const r = spawnSync(
      process.execPath,
      [
        ...nodeArgs('src/relay/cli.ts'),
        'register',
        '--public-url',
        'https://x.example',
        '--data',
        mkdtempSync(join(tmpdir(), 'mb-reg-nokeys-')),
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, MACROBELL_PUBLIC_KEY: '', MACROBELL_PRIVATE_KEY: '' },
        cwd: process.cwd(),
        timeout: 30_000,
      },
    );
    // A missing runtime condition, not a usage error: exit 1 with one line, no usage.
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/MACROBELL_PUBLIC_KEY/);
    expect(r.stderr).not.toMatch(/Usage:/);
  });
});
