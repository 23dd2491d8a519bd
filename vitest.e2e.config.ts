import { defineConfig } from 'vitest/config';

// End-to-end: web mode with the embedded simulator, driven in Debian's Chromium.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
