import { defineConfig } from 'vitest/config';

// Unit and integration tests: plain Node, real SQLite files, real HTTP on 127.0.0.1.
// Renderer component tests opt into jsdom with `// @vitest-environment jsdom`.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
