// Vitest, in two projects: `unit` (test/unit: pure code, no JVM, no processes; `npm run test:unit`) and
// `system` (integration, infra, e2e), which starts DynamoDB Local once and compiles the CLI once for the
// run. `npm test` runs both.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    // A unit test computes and waits for nothing; one that replays a simulated world for minutes of
    // virtual time says so with its own timeout. A hung test fails rather than stall CI.
    testTimeout: 20_000,
    // Twice the cores: most system test files spend their time waiting on a CLI process, a server or
    // DynamoDB Local, not computing. A number, since Vitest caps a percentage at the core count. On the
    // 2-core CI machine 4 workers take the run from 196 to 120 s; 8 starve DynamoDB Local of CPU.
    // Not fewer on a busy machine: each runnable thread gets its share of the cores, so two workers
    // beside other work make each test hardly faster and the run much longer (tried on 2026-11-29 with
    // other test runs beside it). The timeouts are set for four.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    // What a beforeAll does: start the simulator, a CLI process and wait for its first cycle, or create
    // tables on DynamoDB Local. A few seconds quiet; ten times that with two CPU-bound processes beside
    // the run on 2 cores.
    hookTimeout: 120_000,
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
          // A system test makes tens to a few hundred round trips to DynamoDB Local or a loopback server,
          // or starts a CLI process or two (0.25 s of CPU each, quiet). With two CPU-bound processes
          // beside the run, a worker gets a quarter of a core or less, and a round trip to the starved JVM
          // can take 100 ms: 60 s holds a test that takes up to 10 s on a quiet machine. Tests that do
          // more (many cycles, several processes, real-time cycles of a runner) set their own, reasoned
          // from what they do.
          testTimeout: 60_000,
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
