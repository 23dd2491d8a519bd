/** `npm run relay` as a user runs it: flags, secrets, first line, logs, shutdown. */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { exited, post, spawnRelay, tempDir, waitFor } from './helpers.js';
import { nodeArgs } from '../../support/spawn-cli.js';

const noSecretsEnv = { MACROBELL_RELAY_SECRET: '', MACROBELL_RELAY_TOKEN: '' };

describe('relay CLI', () => {
  it('rejects bad flags with a clear message and exit code 2', async () => {
    const cases = [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--retention-days', '0'],
      ['--bogus'],
      ['extra-positional'],
      ['--redis', 'http://127.0.0.1:6379'],
      ['--redis', 'redis://127.0.0.1:6379', '--redis-durability', 'loose'],
      ['--redis-durability', 'relaxed'],
    ];
    // In parallel: each is a Node start-up, slow on a loaded machine.
    const results = await Promise.all(
      cases.map(
        (args) =>
          new Promise<{ code: number | null; stderr: string }>((resolve) => {
            execFile(
              process.execPath,
              [...nodeArgs('src/relay/cli.ts'), ...args],
              { encoding: 'utf8', env: { ...process.env, ...noSecretsEnv }, timeout: 60_000 },
              (err, _stdout, stderr) =>
                resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
            );
          }),
      ),
    );
    for (const [i, r] of results.entries()) {
      expect(r.code, (cases[i] as string[]).join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^relay: .+\nUsage:/);
    }
  }, 90_000);

  it('generates secrets once, keeps them 0600, never prints or logs them (shown on request)', async () => {
    const data = tempDir();
    const first = await spawnRelay(['--port', '0', '--data', data], noSecretsEnv);
    const file = join(data, 'relay-secrets.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { secret: string; token: string };
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(saved.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(saved.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Where they are and how to see them, never the values (systemd sends stdout to the journal).
    await waitFor(() => first.stdout().includes('secrets show'), 'the notice');
    expect(first.stdout()).not.toContain(saved.token);
    expect(first.stdout()).not.toContain(saved.secret);
    expect(first.stdout().split('\n')[0]).toMatch(/^relay listening on http:\/\/127\.0\.0\.1:\d+$/);
    // Traffic that would tempt a logger: a bad token, a wrong secret, a stored webhook.
    await (
      await request(`${first.url}/events`, { headers: { authorization: 'Bearer nope' } })
    ).body.dump();
    expect((await post(`${first.url}/hooks/${saved.secret}`, '{"type":"x"}')).status).toBe(204);
    expect((await post(`${first.url}/hooks/wrong`, '{"type":"x"}')).status).toBe(404);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    const logLines = first
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const l of logLines) {
      expect(() => JSON.parse(l) as unknown).not.toThrow();
      expect(l).not.toContain(saved.secret);
      expect(l).not.toContain(saved.token);
    }

    const second = await spawnRelay(['--port', '0', '--data', data], noSecretsEnv);
    try {
      const health = (await (await request(`${second.url}/healthz`)).body.json()) as {
        lastId: string;
      };
      expect(health.lastId).toBe('1');
      const page = await request(`${second.url}/events/page`, {
        headers: { authorization: `Bearer ${saved.token}` },
      });
      expect(page.statusCode).toBe(200);
      await page.body.dump();
      expect(second.stdout()).not.toContain(saved.token);
      expect(second.stdout()).not.toContain(saved.secret);
      // Shown on request only.
      const shown = await new Promise<string>((resolve) =>
        execFile(
          process.execPath,
          [...nodeArgs('src/relay/cli.ts'), 'secrets', 'show', '--data', data],
          { encoding: 'utf8', env: { ...process.env, ...noSecretsEnv } },
          (_err, stdout) => resolve(stdout),
        ),
      );
      expect(shown).toContain(saved.secret);
      expect(shown).toContain(saved.token);
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  }, 90_000);
});
