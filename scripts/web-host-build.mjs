// The web host (src/main/web/cli.ts) as a bundle in out/web-host, built with Vite's SSR
// build (node_modules stay external). `npm run web` starts it with plain node: under tsx,
// every start compiles and resolves the host's few hundred modules, which took 2–4 s of a
// first run's 1.5 s budget on a loaded machine; the bundle starts in about 1 s there.
//
//   node scripts/web-host-build.mjs    build the bundle when it is missing or stale
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const outDir = (root) => join(root, 'out', 'web-host');
/** The bundle's entry, started by `npm run web`. */
export const webHostEntry = (root) => join(outDir(root), 'cli.mjs');
/** The sources the bundle was built from (relative to the repo), written beside it. */
const inputsFile = (root) => join(outDir(root), 'inputs.json');

/**
 * Whether the bundle is missing or older than a source it was built from or than
 * package.json. A new import shows as a change to the file that imports it.
 */
export function webHostStale(root) {
  const entry = webHostEntry(root);
  if (!existsSync(entry) || !existsSync(inputsFile(root))) return true;
  const built = statSync(entry).mtimeMs;
  const inputs = JSON.parse(readFileSync(inputsFile(root), 'utf8'));
  return ['package.json', ...inputs].some((file) => {
    const path = join(root, file);
    return !existsSync(path) || statSync(path).mtimeMs > built;
  });
}

/** Build the bundle (a few hundred ms) and record its sources. */
export async function buildWebHost(root) {
  const { build } = await import('vite');
  const result = await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: 'src/main/web/cli.ts',
      outDir: outDir(root),
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
    for (const id of chunk.moduleIds ?? [])
      if (id.startsWith(root) && !id.includes('node_modules')) inputs.add(relative(root, id));
  if (inputs.size === 0) throw new Error('the web host bundle lists no sources');
  writeFileSync(inputsFile(root), `${JSON.stringify([...inputs].sort(), null, 1)}\n`);
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
