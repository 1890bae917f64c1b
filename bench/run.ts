// `npm run bench`: runs every benchmark in turn (progress on stderr) and prints, as its last line, one JSON object of figures.
import { benchApiClient } from './apiClient.js';
import { benchBudgetWorlds } from './budgetWorlds.js';
import { benchCadenceWeek } from './cadenceWeek.js';
import { benchDiff } from './diff.js';
import { benchDynamoCycle } from './dynamoCycle.js';
import { benchFunctionBundles } from './functionBundles.js';
import { benchPollerLambda } from './pollerLambda.js';
import { benchPollRequests } from './pollRequests.js';
import { benchSnapshotMemory } from './snapshotMemory.js';
import { benchThousandOrganizations } from './thousandOrganizations.js';

const benches: ReadonlyArray<readonly [string, () => Promise<Record<string, number>>]> = [
  // First, before DynamoDB Local's JVM is started (it runs until the bench exits) and competes for the CPU
  // the imports are timed on.
  [
    'Lambda bundles: size, import and first call in a fresh process (cdk synth with esbuild)',
    benchFunctionBundles,
  ],
  ['api client', benchApiClient],
  ['diff engine (100,000 orders)', benchDiff],
  ['poll requests (1,000 orders, simulator)', benchPollRequests],
  ['poll cycle on DynamoDB Local (1,000 orders)', benchDynamoCycle],
  ['the poller bundle in a process of its own: memory, CPU, logs, metrics (1,000 orders)', benchPollerLambda],
  [
    'budget-true polling: canteen afternoon and 20 organizations on one token (50/min, 100 ms latency, virtual time)',
    benchBudgetWorlds,
  ],
  [
    'a simulated week of a Monday-to-Friday school under cadence auto and fixed (virtual time)',
    benchCadenceWeek,
  ],
  ['memory of 100,000 snapshots (child process)', benchSnapshotMemory],
  [
    'a minute of 1,000 organizations on the poller path: concurrency, table capacity, cost (DynamoDB Local)',
    benchThousandOrganizations,
  ],
];

// `npm run bench -- <word>` runs only the benchmarks whose name holds the word, e.g. `bundles`.
const only = process.argv[2]?.toLowerCase();
const selected = only === undefined ? benches : benches.filter(([name]) => name.toLowerCase().includes(only));
if (selected.length === 0) throw new Error(`no benchmark's name holds "${only}"`);

// Exit through process.exit on Ctrl-C, so the 'exit' hook that kills DynamoDB Local runs.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const figures: Record<string, number> = {};
const started = performance.now();
for (const [name, bench] of selected) {
  const benchStarted = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  const result = await bench();
  process.stderr.write(`bench: ${name} done in ${Math.round(performance.now() - benchStarted)} ms\n`);
  Object.assign(figures, result);
}
process.stderr.write(`bench: all done in ${Math.round((performance.now() - started) / 1000)} s\n`);
process.stdout.write(`${JSON.stringify(figures)}\n`);
