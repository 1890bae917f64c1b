// Vitest, in two projects: `unit` (test/unit: pure code, no JVM, no processes; `npm run test:unit`) and
// `system` (integration, infra, e2e), which starts DynamoDB Local once and compiles the CLI once for the
// run. `npm test` runs both.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    // Tests start real servers on loopback; a hung one should fail, not stall CI.
    testTimeout: 20_000,
    // Twice the cores: most system test files spend their time waiting on a CLI process, a server or
    // DynamoDB Local, not computing. A number, since Vitest caps a percentage at the core count. On the
    // 2-core CI machine 4 workers take the run from 196 to 120 s; 8 starve DynamoDB Local of CPU.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Unit tests hold no process-wide state between files (env stubs are undone in afterEach), so
          // they share workers and their module cache: most of a fresh worker's time is importing zod,
          // the AWS SDK and the like again, about five times the time the tests themselves take.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: ['test/{integration,infra,e2e}/**/*.test.ts'],
          globalSetup: ['test/globalSetup/system.ts'],
          // Files share their worker's module cache, as the unit tests do: importing the AWS SDK, aws-cdk-lib
          // and zod again for every file was 41% of the run (137 to 60 s for integration and infra). What
          // a file changes process-wide it undoes: env stubs and fake timers in afterEach, SDK mocks
          // restored in afterAll, and each Lambda handler module is imported by one file only.
          isolate: false,
        },
      },
    ],
  },
});
