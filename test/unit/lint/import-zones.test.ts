/**
 * The import zones of eslint.config.js, run through ESLint's API on small snippets placed
 * (virtually) in each part of the tree: every forbidden edge is reported, allowed ones are not.
 */
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: resolve(root, 'eslint.config.js') });
});

/** The import-rule messages ESLint reports for `code` as if it were the file at `path`. */
async function importErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const uses = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;
const lazy = (spec: string) => `export const load = () => import('${spec}');\n`;

describe('import zones', () => {
  it.each([
    [
      'src/main/sync/engine.ts',
      '../electron/app.js',
      /The core may import only .*not the Electron host/,
    ],
    ['src/main/service.ts', './web/host.js', /The core .*not the web host/],
    ['src/main/store/store.ts', '../../simulator/index.js', /The core .*not the simulator/],
    ['src/main/service.ts', '../simulator/index.js', /loaded only by src\/main\/demo\.ts/],
    ['src/main/sync/engine.ts', '../../relay/sse-hub.js', /The core .*not the relay/],
    ['src/main/electron/app.ts', '../../simulator/index.js', /Electron host .*not the simulator/],
    ['src/main/electron/app.ts', '../web/host.js', /Electron host .*not the web host/],
    ['src/main/web/host.ts', '../../simulator/index.js', /web host .*not the simulator/],
    ['src/main/web/host.ts', '../electron/tray.js', /web host .*not the Electron host/],
    [
      'src/relay/server.ts',
      '../main/store/index.js',
      /src\/relay may import only .*not the app core/,
    ],
    ['src/relay/server.ts', '../simulator/index.js', /src\/relay .*not the simulator/],
    [
      'src/relay/log/sqlite-log.ts',
      '../stream/sse-hub.js',
      /relay's stores .*not the parts that serve/,
    ],
    [
      'src/relay/users/users.ts',
      '../desk-ops/index.js',
      /relay's stores .*not the parts that serve/,
    ],
    ['src/simulator/index.ts', '../relay/server.js', /src\/simulator .*not the relay/],
    ['src/simulator/index.ts', '../main/store/store.js', /src\/simulator .*not the app core/],
    ['src/preload/index.ts', '../main/service.js', /src\/preload may import only src\/shared/],
    ['src/renderer/src/state/app.ts', '../../../main/service.js', /renderer may import only/],
    ['src/renderer/src/state/app.ts', '../../../node/log/logger.js', /renderer .*not shared Node/],
    [
      'src/renderer/src/state/app.ts',
      '../../../simulator/index.js',
      /renderer .*not the simulator/,
    ],
    ['src/shared/domain.ts', '../main/errors.js', /src\/shared may import only src\/shared/],
    ['src/shared/domain.ts', '../renderer/src/lib/time.js', /src\/shared .*not the renderer/],
    ['src/node/log/logger.ts', '../../main/errors.js', /src\/node .* may import only src\/shared/],
    ['src/node/log/logger.ts', '../../relay/metrics.js', /src\/node .*not the relay/],
    ['src/main/store/store.ts', 'electron', /Only src\/main\/electron and src\/preload/],
    ['src/shared/domain.ts', 'node:fs', /must not use Node built-ins/],
    ['src/main/store/migrations/010_next.ts', '../html-text.js', /A migration imports only/],
    [
      'src/main/store/migrations/010_next.ts',
      '../../../shared/format.js',
      /migration imports only \.\/frozen\/ helpers and packages, never live code/,
    ],
    ['src/main/store/migrations/frozen/next.ts', '../../html-text.js', /A migration imports only/],
  ])('%s importing %s is an error', async (path, spec, message) => {
    const errors = await importErrors(path, uses(spec));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
    expect(errors[0]).toContain('docs/architecture.md');
  });

  it('catches a lazy import() across an edge too', async () => {
    const errors = await importErrors('src/main/service.ts', lazy('../simulator/index.js'));
    expect(errors).toEqual([expect.stringMatching(/The core .*not the simulator/)]);
    expect(await importErrors('src/main/sync/engine.ts', lazy('../web/host.js'))).toHaveLength(1);
  });

  it.each([
    ['src/main/demo.ts', '../simulator/index.js'],
    ['src/main/demo.ts', lazy('../simulator/index.js')],
    ['src/main/electron/app.ts', '../service.js'],
    ['src/main/electron/app.ts', 'electron'],
    ['src/main/web/host.ts', '../service.js'],
    ['src/main/service.ts', '../node/log/logger.js'],
    ['src/main/store/store.ts', '../../shared/domain.js'],
    ['src/relay/server.ts', '../node/oauth/token-manager.js'],
    ['src/relay/server.ts', '../shared/wire.js'],
    ['src/node/log/logger.ts', '../../shared/domain.js'],
    ['src/renderer/src/state/app.ts', '../../../shared/domain.js'],
    ['src/renderer/src/state/app.ts', '../lib/time.js'],
    ['src/shared/ipc.ts', './domain.js'],
    ['src/simulator/index.ts', '../shared/domain.js'],
    ['src/simulator/index.ts', '../node/backoff.js'],
    ['src/preload/index.ts', '../shared/ipc.js'],
    ['src/preload/index.ts', 'electron'],
    ['src/main/web/host.ts', '../../node/log/logger.js'],
    ['src/main/store/migrations/010_next.ts', './frozen/search-columns.js'],
    ['src/main/store/migrations/010_next.ts', 'better-sqlite3'],
    ['src/main/store/migrations/frozen/next.ts', './html-to-text.js'],
    ['src/main/store/migrations/index.ts', '../../../node/sqlite/migrations.js'],
  ])('%s may import %s', async (path, spec) => {
    const code = spec.startsWith('export') ? spec : uses(spec);
    expect(await importErrors(path, code)).toEqual([]);
  });
});

describe('small functions, names declared before use', () => {
  const rulesFor = async (path: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
    return (result?.messages ?? []).map((m) => m.ruleId);
  };
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
  const fn = (n: number) =>
    `export function f(): number {\n  let x = 0;\n${body(n)}\n  return x;\n}\n`;

  it('reports a function over 80 lines in src/, a component’s too, and not a shorter one', async () => {
    expect(await rulesFor('src/relay/routes/x.ts', fn(80))).toContain('max-lines-per-function');
    expect(await rulesFor('src/relay/routes/x.ts', fn(76))).not.toContain('max-lines-per-function');
    // components are held to the same rule (#46 item 7)
    expect(await rulesFor('src/renderer/src/components/X.tsx', fn(80))).toContain(
      'max-lines-per-function',
    );
    expect(await rulesFor('src/renderer/src/components/X.tsx', fn(76))).not.toContain(
      'max-lines-per-function',
    );
  });

  it('reports a variable used before its declaration', async () => {
    const code =
      'export function g(): number {\n  const a = b + 1;\n  const b = 2;\n  return a;\n}\n';
    expect(await rulesFor('src/main/service.ts', code)).toContain(
      '@typescript-eslint/no-use-before-define',
    );
  });
});
