// The web host (src/main/web/cli.ts) as a bundle in out/web-host, built with Vite's SSR
// build (node_modules stay external). `npm run web` starts it with plain node: under tsx,
// every start compiles and resolves the host's few hundred modules, which took 2–4 s of a
// first run's 1.5 s budget on a loaded machine; the bundle starts in about 1 s there.
//
//   node scripts/web-host-build.mjs    build the bundle when it is missing or stale
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Each build goes to a folder of its own, out/web-host/<id>, and `current` (replaced in one
 * rename) names the one to run: two starts that build at once (two test files, two
 * terminals) never run or remove a half-written bundle.
 */
const hostDir = (root) => join(root, 'out', 'web-host');
const currentFile = (root) => join(hostDir(root), 'current');
const currentBuild = (root) => {
  try {
    return join(hostDir(root), readFileSync(currentFile(root), 'utf8').trim());
  } catch {
    return null;
  }
};
/** The bundle's entry, run by `npm run web` (null before the first build). */
export const webHostEntry = (root) => {
  const build = currentBuild(root);
  return build && join(build, 'cli.mjs');
};

/**
 * V8's compile cache of a bundle (node:module enableCompileCache), kept in its build's folder
 * so it goes with it. Compiling the bundle and the modules it imports (undici, zod, pino…)
 * was about 150 ms of a first run's CPU; with the cache, V8 reads the code it compiled
 * before. Node.js checks each entry against the source it was made from: a stale one is
 * recompiled, never run.
 */
export const compileCacheOf = (entry) => join(dirname(entry), 'compile-cache');

/**
 * Fill a new bundle's compile cache before it becomes the current one, so the first start
 * after an install is as quick as the next: `--help` loads every module the host imports at
 * start and exits before it starts anything. Best effort: without it the first run fills it.
 */
function warmCompileCache(entry) {
  spawnSync(process.execPath, [entry, '--help'], {
    env: { ...process.env, NODE_COMPILE_CACHE: compileCacheOf(entry) },
    stdio: 'ignore',
    timeout: 30_000,
  });
}

/**
 * Whether the bundle is missing or older than a source it was built from or than
 * package.json. A new import shows as a change to the file that imports it.
 */
export function webHostStale(root) {
  const build = currentBuild(root);
  if (!build || !existsSync(join(build, 'cli.mjs')) || !existsSync(join(build, 'inputs.json')))
    return true;
  const built = statSync(join(build, 'cli.mjs')).mtimeMs;
  const inputs = JSON.parse(readFileSync(join(build, 'inputs.json'), 'utf8'));
  return ['package.json', ...inputs].some((file) => {
    const path = join(root, file);
    return !existsSync(path) || statSync(path).mtimeMs > built;
  });
}

/** Builds replaced more than this long ago are removed (a start still loading one is done). */
const KEEP_OLD_MS = 10 * 60_000;

/** Build the bundle (a few hundred ms), record its sources and make it the current one. */
export async function buildWebHost(root) {
  const { build } = await import('vite');
  const id = `${Date.now()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  const outDir = join(hostDir(root), id);
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: 'src/main/web/cli.ts',
      outDir,
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      rollupOptions: { output: { format: 'es', entryFileNames: 'cli.mjs' } },
    },
    ssr: { target: 'node' },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output ?? []);
  const inputs = new Set();
  for (const chunk of outputs)
    for (const moduleId of chunk.moduleIds ?? [])
      if (moduleId.startsWith(root) && !moduleId.includes('node_modules'))
        inputs.add(relative(root, moduleId));
  if (inputs.size === 0) throw new Error('the web host bundle lists no sources');
  writeFileSync(join(outDir, 'inputs.json'), `${JSON.stringify([...inputs].sort(), null, 1)}\n`);
  warmCompileCache(join(outDir, 'cli.mjs'));
  const next = `${currentFile(root)}.${id}`;
  writeFileSync(next, id);
  renameSync(next, currentFile(root));
  for (const entry of readdirSync(hostDir(root), { withFileTypes: true })) {
    const path = join(hostDir(root), entry.name);
    // Old by its name (the time its build started) and by its files: a build still being
    // written is never both, even where processes disagree on the clock (libfaketime starts
    // each process of the clock matrix at the same moment).
    const startedAt = Number(entry.name.split('-')[0]);
    if (
      entry.isDirectory() &&
      entry.name !== id &&
      Number.isFinite(startedAt) &&
      Date.now() - startedAt > KEEP_OLD_MS &&
      Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS
    )
      rmSync(path, { recursive: true, force: true });
  }
}

/** Build the bundle when it is stale; true when it built. */
export async function ensureWebHost(root) {
  if (!webHostStale(root)) return false;
  await buildWebHost(root);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  await ensureWebHost(root);
}
