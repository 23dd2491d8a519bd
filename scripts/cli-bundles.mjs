// The relay's and the simulator's CLIs as one Vite SSR build (node_modules stay external),
// for the tests that start them as child processes. Under tsx each start compiles and
// resolves a few hundred modules: about 1.5 s of CPU against 0.4 s for the bundle, paid
// by every `relay users add`, every node and every simulator a test starts — a few hundred
// per `npm test`, and on a busy 2-core machine each took 10–17 s. The tests that check the
// commands as an operator types them (`npm run relay`, the systemd unit, --help) still run
// them from the sources under tsx.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** Script (as the tests name it) → its bundle's file name. */
export const CLI_BUNDLES = {
  'src/relay/cli.ts': 'relay.mjs',
  'src/simulator/cli.ts': 'simulator.mjs',
};

/** Builds both CLIs into a folder of its own under out/test-cli; returns the folder. */
export async function buildCliBundles(root) {
  const { build } = await import('vite');
  // Vite's build sets NODE_ENV=production in this process when it is unset; the test files
  // inherit the environment, and React's production build has no act() for them.
  const nodeEnv = process.env.NODE_ENV;
  const outDir = join(
    root,
    'out',
    'test-cli',
    `${Date.now()}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      build: {
        ssr: true,
        outDir,
        emptyOutDir: true,
        target: 'node22',
        minify: false,
        rollupOptions: {
          input: Object.fromEntries(
            Object.entries(CLI_BUNDLES).map(([script, file]) => [
              file.replace(/\.mjs$/, ''),
              script,
            ]),
          ),
          output: {
            format: 'es',
            entryFileNames: '[name].mjs',
            chunkFileNames: '[name]-[hash].mjs',
          },
        },
      },
      ssr: { target: 'node' },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}
