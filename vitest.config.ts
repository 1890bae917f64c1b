import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // Tests start real servers on loopback; a hung one should fail, not stall CI.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
