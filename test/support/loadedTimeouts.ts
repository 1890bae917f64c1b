// Timeouts for tests that do a known amount of slow work, counted from what each unit of that work takes at
// worst on the 2-core machine with two CPU-bound processes beside `npm test` (and other work beside that).
// Figures are the worst seen on such a run (2026-11-29, load 8 to 25), rounded up; quiet, each is a tenth.
// A test names the work it does, e.g. `timeoutFor({ cliRuns: 3 })`, rather than a bare number.

/** One CLI process, start to exit (0.25 to 0.5 s of CPU quiet; `poll --once` with deliveries took 20 s). */
const CLI_RUN_MS = 20_000;
/**
 * One round trip to DynamoDB Local, with its share of the simulator's work: 7 to 9 ms quiet, 15 ms beside
 * three busy loops, over 75 ms beside `npm test`'s other workers and a bench (800 timed out at 60 s);
 * twice that. A poll cycle makes 10 to 300 of them (budget counters, snapshots, events, the lease).
 */
const DYNAMO_ROUND_TRIP_MS = 150;
/** One `cdk synth` of the app in this process or a child (5 to 10 s quiet; 45 s seen under load). */
const SYNTH_MS = 60_000;
/** What any test spends besides: its servers, simulator and assertions. */
const SETTLE_MS = 10_000;

export interface SlowWork {
  /** CLI processes started and awaited one after another. */
  cliRuns?: number;
  /** Round trips to DynamoDB Local, one after another (count them with a middleware on the client). */
  dynamoRoundTrips?: number;
  /** CDK syntheses. */
  synths?: number;
  /**
   * Wall-clock seconds the test waits on purpose for real time to pass: a runner's interval between
   * cycles, a simulator's scenario. Not stretched by load, but counted twice, since the work in between is.
   */
  realSeconds?: number;
}

export function timeoutFor(work: SlowWork): number {
  return (
    SETTLE_MS +
    (work.cliRuns ?? 0) * CLI_RUN_MS +
    (work.dynamoRoundTrips ?? 0) * DYNAMO_ROUND_TRIP_MS +
    (work.synths ?? 0) * SYNTH_MS +
    (work.realSeconds ?? 0) * 2_000
  );
}
