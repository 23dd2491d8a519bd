/**
 * Issue #44, item 5: npm 11's `allowScripts` stopped nothing — an unlisted dependency's
 * install script ran on `npm ci`. Now the project's `.npmrc` runs no install script at all,
 * and scripts/approved-scripts.mjs runs the approved ones by name. Shown with real npm on a
 * throw-away project holding two local packages whose install scripts leave a mark: one
 * approved in package.json, one not.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the scripts folder, without types
import { installScripts, runApprovedScripts } from '../../../scripts/approved-scripts.mjs';
import { tempDir } from '../relay/helpers.js';

const repoNpmrc = join(import.meta.dirname, '..', '..', '..', '.npmrc');
const ciRun = join(import.meta.dirname, '..', '..', '..', '.ci', 'run');

/** A packed local package whose install script writes `marks/<name>`. */
function packWithInstallScript(dir: string, name: string): string {
  const src = join(dir, `src-${name}`);
  mkdirSync(src);
  writeFileSync(
    join(src, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      scripts: {
        install: `node -e "require('fs').writeFileSync(require('path').join(process.env.INIT_CWD, 'marks', '${name}'), 'ran')"`,
      },
    }),
  );
  execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: src });
  return `file:${name}-1.0.0.tgz`;
}

describe('install scripts', () => {
  it('run on install for no dependency, then only for the approved ones, by name', () => {
    const dir = tempDir('mb-scripts-');
    mkdirSync(join(dir, 'marks'));
    const dependencies = {
      'approved-native': packWithInstallScript(dir, 'approved-native'),
      'unlisted-evil': packWithInstallScript(dir, 'unlisted-evil'),
    };
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'p',
        version: '1.0.0',
        private: true,
        dependencies,
        allowScripts: { 'approved-native': true },
      }),
    );
    copyFileSync(repoNpmrc, join(dir, '.npmrc'));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline'], { cwd: dir });
    // The install itself ran neither script.
    expect(existsSync(join(dir, 'marks', 'approved-native'))).toBe(false);
    expect(existsSync(join(dir, 'marks', 'unlisted-evil'))).toBe(false);
    expect(installScripts(dir)).toEqual({
      approved: ['approved-native'],
      unapproved: ['unlisted-evil'],
    });
    // CI's check refuses an unapproved script before running anything.
    expect(runApprovedScripts({ root: dir, check: true })).toBe(1);
    expect(existsSync(join(dir, 'marks', 'approved-native'))).toBe(false);
    // Otherwise the approved one runs, and only it.
    expect(runApprovedScripts({ root: dir })).toBe(0);
    expect(readFileSync(join(dir, 'marks', 'approved-native'), 'utf8')).toBe('ran');
    expect(existsSync(join(dir, 'marks', 'unlisted-evil'))).toBe(false);
  }, 120_000);

  it('CI installs with scripts off and runs the approved check; Node is pinned with its integrity', () => {
    const run = readFileSync(ciRun, 'utf8');
    expect(run).toMatch(/npm ci --ignore-scripts/);
    expect(run).toMatch(/node scripts\/approved-scripts\.mjs --check/);
    expect(run).toMatch(/NODE_VERSION=22\.\d+\.\d+\n/);
    expect(run).toMatch(/NODE_INTEGRITY_X64=sha512-[A-Za-z0-9+/=]{88}\n/);
    expect(run).not.toMatch(/node-linux-\$arch@22"/);
  });
});
