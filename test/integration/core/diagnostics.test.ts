/** "Copy diagnostics": versions and the last errors, from a real service — never a secret. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recentErrors, runtimeInfo } from '../../../src/main/diagnostics.js';
import { startCore, type CoreHarness } from './harness.js';

const PRIVATE_KEY = 'sk-diagnostics-test-0123456789';
const line = (level: number, time: number, msg: string, err?: string) =>
  JSON.stringify({ level, time, msg, ...(err ? { err: { type: 'Error', message: err } } : {}) });

describe('diagnostics', () => {
  let core: CoreHarness | null = null;
  afterAll(async () => core?.close());

  it('carry the app, Electron and ABI versions and the last errors, with secrets scrubbed', async () => {
    core = await startCore({
      keys: { publicKey: 'pk-diagnostics', privateKey: PRIVATE_KEY },
      service: { appVersion: '1.4.2' },
    });
    mkdirSync(join(core.dataDir, 'logs'), { recursive: true });
    writeFileSync(
      join(core.dataDir, 'logs', 'shell.log'),
      [
        line(30, 1_000, 'update check skipped'),
        line(50, 2_000, 'update failed', `bad token ${PRIVATE_KEY}`),
        '{ not json',
        '',
      ].join('\n'),
    );
    const text = await core.service.api.getDiagnostics();
    expect(text).not.toContain(PRIVATE_KEY);
    const report = JSON.parse(text.slice(0, text.indexOf('\n\n--- recent log'))) as {
      versions: Record<string, unknown>;
      lastErrors: { msg: string; error: string }[];
    };
    expect(report.versions).toMatchObject({
      app: '1.4.2',
      node: process.versions.node,
      abi: process.versions.modules,
      electron: null, // plain Node here; Electron's version in the app
      platform: `${process.platform} ${process.arch}`,
    });
    expect(report.lastErrors.at(-1)).toMatchObject({ msg: 'update failed' });
    expect(report.lastErrors.at(-1)?.error).toMatch(/^bad token /);
  });

  it('are refused with the reason while the keychain cannot be read to scrub the keys', async () => {
    const c = core as CoreHarness;
    const get = c.secrets.get.bind(c.secrets);
    c.secrets.get = async () => {
      throw new Error('the keyring is locked');
    };
    try {
      await expect(c.service.api.getDiagnostics()).rejects.toThrow(
        /Diagnostics need the keychain, to leave your keys out of them, and it does not answer: the keyring is locked/,
      );
    } finally {
      c.secrets.get = get;
    }
    expect(await c.service.api.getDiagnostics()).not.toContain(PRIVATE_KEY);
  });
});

describe('recentErrors', () => {
  it('keeps only errors and worse, newest last, at most the limit, across files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'macrobell-diag-'));
    try {
      const a = join(dir, 'a.log');
      const b = join(dir, 'b.log');
      writeFileSync(
        a,
        [line(50, 3, 'third'), line(40, 4, 'a warning'), line(60, 1, 'first')].join('\n'),
      );
      writeFileSync(b, line(50, 2, 'second', 'ECONNRESET'));
      expect(recentErrors([a, b, join(dir, 'missing.log')]).map((e) => e.msg)).toEqual([
        'first',
        'second',
        'third',
      ]);
      expect(recentErrors([a, b], 2).map((e) => e.msg)).toEqual(['second', 'third']);
      expect(recentErrors([b])[0]).toEqual({
        time: '1970-01-01T00:00:00.002Z',
        msg: 'second',
        error: 'ECONNRESET',
      });
      expect(runtimeInfo().app).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
