// @clock any-moment — its commands start the demo, but it reads none of its schedule
/**
 * The three command lines as an operator meets them: `--help`/`-h` prints the usage and
 * exits 0; a runtime condition that is missing (no keys, a port taken) exits 1 with one
 * line, not the usage; and `npm start` where Electron cannot run opens the web dashboard
 * in the desktop app's auto mode (here: live through a desk relay from the environment).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay } from '../../../src/relay/server.js';
import { tempDir, waitFor } from '../relay/helpers.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const killers: (() => void)[] = [];
afterEach(() => killers.splice(0).forEach((k) => k()));

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const tsx = (file: string, ...args: string[]) => ['--import', 'tsx', file, ...args];
const CLIS = {
  relay: 'src/relay/cli.ts',
  simulator: 'src/simulator/cli.ts',
  web: 'src/main/web/cli.ts',
};

describe('--help', () => {
  it.each(
    Object.entries(CLIS).flatMap(([name, file]) => [
      [name, file, '--help'],
      [name, file, '-h'],
    ]),
  )('%s %s %s prints the usage on stdout and exits 0', async (_name, file, flag) => {
    const r = await run(tsx(file, flag));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage:/);
    expect(r.stderr).toBe('');
  });

  it('web --help names the data folder’s default with $XDG_DATA_HOME, and where it is here', async () => {
    // only named, never made: --help touches no folder
    const dataHome = '/srv/trader-data';
    const r = await run(tsx(CLIS.web, '--help'), { XDG_DATA_HOME: dataHome });
    const usage = r.stdout.replace(/\s+/g, ' ');
    expect(usage).toContain(
      '(default: $XDG_DATA_HOME/macrobell, or ~/.local/share/macrobell where XDG_DATA_HOME is unset or relative;',
    );
    expect(r.stdout).toContain(`here: ${join(dataHome, 'macrobell')})`);
    // a relative XDG_DATA_HOME is ignored, as the spec says
    const relative = await run(tsx(CLIS.web, '--help'), {
      XDG_DATA_HOME: 'rel',
      HOME: '/home/trader',
    });
    expect(relative.stdout).toContain('here: /home/trader/.local/share/macrobell)');
  });

  it('npm start --help prints the usage without building or starting anything', async () => {
    const r = await run(['scripts/start.mjs', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm start/);
    expect(r.stdout).toMatch(/Usage: npm run web/);
    expect(r.stdout).not.toMatch(/Building/);
  });

  it('a bad flag still exits 2 with the usage on stderr', async () => {
    const r = await run(tsx(CLIS.relay, '--nope'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--nope'[\s\S]*Usage:/);
  });
});

describe('a missing runtime condition', () => {
  it('relay register without provider keys: exit 1, one line', async () => {
    const r = await run(
      tsx(CLIS.relay, 'register', '--public-url', 'https://relay.example.com', '--data', tempDir()),
      { MACROBELL_PUBLIC_KEY: '', MACROBELL_PRIVATE_KEY: '' },
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^relay: no provider keys/),
    ]);
  });

  it('simulator and web host on a port already taken: exit 1, one line', async () => {
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    killers.push(() => taken.close());
    const port = String((taken.address() as { port: number }).port);
    const sim = await run(tsx(CLIS.simulator, '--port', port));
    expect(sim.code, sim.stderr).toBe(1);
    expect(sim.stderr.trim().split('\n'), sim.stderr).toEqual([
      expect.stringMatching(/^simulator: .*EADDRINUSE/),
    ]);
    // A stand-in for the built UI: this runs before `npm test` builds the real one.
    const ui = tempDir();
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>Macrobell</title>');
    const web = await run(tsx(CLIS.web, '--demo', '--port', port, '--data', tempDir()), {
      MACROBELL_WEB_UI_DIR: ui,
    });
    expect(web.code, web.stderr).toBe(1);
    expect(web.stderr.trim().split('\n'), web.stderr).toEqual([
      expect.stringMatching(/^macrobell web: .*EADDRINUSE/),
    ]);
  }, 60_000);
});

describe('npm start without Electron', () => {
  it('runs the desktop app’s auto mode: live through the desk relay the environment names', async () => {
    const relay = await startRelay({
      dataDir: tempDir(),
      secret: 'start-secret-1',
      token: 'start-legacy',
    });
    killers.push(() => void relay.close());
    const child = spawn(
      process.execPath,
      ['scripts/start.mjs', '--port', '0', '--data', tempDir()],
      {
        env: {
          ...process.env,
          DISPLAY: '',
          WAYLAND_DISPLAY: '',
          MACROBELL_RELAY_URL: relay.url,
          MACROBELL_RELAY_TOKEN: 'start-legacy',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    killers.push(() => {
      if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGTERM');
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /Data folder:/.test(out), 'the web host to start', 120_000);
    expect(out).toMatch(/Starting Macrobell as a local web dashboard instead/);
    expect(out).toMatch(/Live data; access tokens from the desk relay/);
    expect(out).not.toMatch(/Demo data/);
  }, 150_000);
});
