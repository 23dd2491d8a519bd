import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and integration tests: plain Node, real SQLite files, real HTTP on 127.0.0.1.
// Renderer component tests opt into jsdom with `// @vitest-environment jsdom`.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on child processes, sockets and timers rather than compute, so on a
    // 2-core machine vitest's default (cores − 1 = one file at a time) leaves the CPU idle.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    setupFiles: ['test/support/dom-timeouts.ts', 'test/support/listener-leaks.ts'],
    reporters: ['default'],
  },
});
