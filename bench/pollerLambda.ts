// The poller as Lambda runs it, for the memory it is given and the compute the cost section prices: the
// bundle the stack deploys (bench/support/pollerBundle.ts), imported in a Node process of its own with
// nothing else in it, and invoked through its handler as the schedule invokes it, for the reference
// organization (the 1,000-order world of pollFixture.ts, its interval left to the AWS default) over
// DynamoDB Local, with Secrets Manager and SQS stood in for on loopback. The parent sets the organization
// due before each invocation, so cycles follow one another without waiting a minute.
//
// Figures:
// - poller_lambda_memory_mb: the memory the stack gives the poller.
// - poller_lambda_max_rss_mb: the process's peak resident memory (getrusage maxRSS) over every invocation,
//   the baseline's 1,000 snapshot writes included, with the heap limits Lambda's runtime sets for that
//   memory: what the function's memory must hold, besides the Lambda runtime's own share.
// - poller_lambda_loaded_rss_mb: resident memory once the bundle is imported, before any invocation.
// - poller_lambda_cpu_ms_per_cycle: median CPU time (user + system) of the 5 steady cycles, one core.
// - poller_lambda_cycle_ms_loopback: median wall time of those cycles (every peer on loopback).
// - poller_lambda_requests_per_cycle: mean API requests of those cycles (requests_per_steady_cycle, here
//   through the handler).
// - poller_lambda_cpu_ms_not_due: CPU time of a trigger that finds the organization not due (one state read).
// - poller_log_bytes_per_cycle: mean bytes the steady cycles wrote to stdout (log lines and EMF), what
//   CloudWatch Logs ingests besides Lambda's own START/END/REPORT lines.
// - poller_custom_metrics_per_organization: distinct metrics published with the Organization dimension
//   over every invocation: each one is a CloudWatch custom metric billed per month.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { ORGANIZATION_TOKENS_SECRET } from '../shared/contracts/secretShards.js';
import { createStateTableInput } from '../shared/contracts/stateTableDefinition.js';
import { DynamoStateStore } from '../shared/store/dynamo/dynamoStateStore.js';
import { type AwsStandIn, startAwsStandIn } from './support/awsStandIn.js';
import { dynamoLocalClient, startDynamoLocal } from './support/dynamoLocal.js';
import { round } from './support/figures.js';
import { bundlePoller } from './support/pollerBundle.js';
import { FixedClock, openPollFixture, sweptOnce } from './support/pollFixture.js';

const TABLE = 'bench-poller';
const SECRETS_PREFIX = 'meal-order-notifier/';
const TOKEN_REFERENCE = 'BENCH_SCHOOL_TOKEN';
/** Cycles the first full sweep may take before the bench gives up. */
const MAX_BASELINE_CYCLES = 20;
/** One sweep period at a cycle a minute. */
const STEADY_CYCLES = 5;
/** Starts each invocation's output, so the parent can count what each one logged. */
const MARKER = 'BENCH-INVOCATION ';

/** What the child answers for each invocation. */
interface Invocation {
  id: string;
  result?: { outcome?: string; ok?: boolean; requests?: number; failures?: string[] };
  error?: string;
  ms: number;
  cpuMs: number;
  maxRssKb: number;
}

/** The child: imports the bundle, then runs the handler for each event the parent sends. No tsx here. */
const CHILD_SCRIPT = `
const [bundleUrl] = process.argv.slice(1);
const { handler } = await import(bundleUrl);
const loadedRss = process.memoryUsage().rss;
process.on('message', async ({ id, event }) => {
  process.stdout.write(${JSON.stringify(MARKER)} + id + '\\n');
  const cpu = process.cpuUsage();
  const started = performance.now();
  let result;
  let error;
  try {
    result = await handler(event, { awsRequestId: id });
  } catch (thrown) {
    error = String(thrown?.stack ?? thrown);
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  process.send({ id, result, error, ms, cpuMs: (used.user + used.system) / 1000, maxRssKb: process.resourceUsage().maxRSS });
});
process.send({ ready: true, loadedRss });
`;

export async function benchPollerLambda(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'meal-notifier-poller-bench-'));
  const dynamo = await startDynamoLocal();
  const client = dynamoLocalClient(dynamo.endpoint);
  let standIn: AwsStandIn | undefined;
  let child: ChildProcess | undefined;
  try {
    await client.send(new CreateTableCommand(createStateTableInput(TABLE)));
    const store = new DynamoStateStore({ client, tableName: TABLE });
    // The world's clock starts now: the bundle's handler reads the real one.
    const fixture = await openPollFixture(store, new FixedClock(Date.now()));
    try {
      const { organization, sim } = fixture;
      const written = {
        // Far above the cycles' needs: the figures count work, not waits for budget.
        api: { baseUrl: sim.baseUrl, requestsPerMinute: 1000 },
        organizations: [
          {
            id: organization.id,
            name: organization.name,
            token: { env: TOKEN_REFERENCE },
            timeZone: organization.timeZone,
            window: organization.window,
            sweepIntervalSeconds: organization.sweepIntervalSeconds,
          },
        ],
      };
      process.stderr.write('bench:   bundling the poller as the stack does…\n');
      const bundle = bundlePoller(written, join(dir, 'cdk.out'));
      standIn = await startAwsStandIn({
        [`${SECRETS_PREFIX}${ORGANIZATION_TOKENS_SECRET}`]: JSON.stringify({ [TOKEN_REFERENCE]: sim.token }),
      });
      const started = startChild(bundle.path, bundle.memoryMb, {
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ENDPOINT_URL_SECRETS_MANAGER: standIn.endpoint,
        AWS_ENDPOINT_URL_SQS: standIn.endpoint,
        STATE_TABLE_NAME: TABLE,
        SECRETS_PREFIX,
        TICK_QUEUE_URL: `${standIn.endpoint}/123456789012/ticks`,
        CATCH_UP_AFTER_SECONDS: 'none',
      });
      child = started.child;
      const loadedRss = await started.loadedRss;

      let count = 0;
      const invoke = async (): Promise<Invocation> => {
        count += 1;
        const id = `bench-${count}`;
        const answered = waitForMessage<Invocation>(started.child, (message) => message.id === id);
        started.child.send({ id, event: { organizationId: organization.id } });
        const invocation = await answered;
        if (invocation.error) throw new Error(`invocation ${id} threw: ${invocation.error}`);
        return invocation;
      };
      const cycle = async (label: string): Promise<Invocation> => {
        const state = await store.loadPollState(organization.id);
        if (state) await store.savePollState({ ...state, pace: { ...state.pace, nextPollAt: Date.now() } });
        const invocation = await invoke();
        const { result } = invocation;
        if (result?.outcome !== 'polled' || result.ok !== true) {
          throw new Error(`${label}: ${JSON.stringify(result)}`);
        }
        return invocation;
      };

      let baselineCycles = 0;
      while (!(await sweptOnce(store, organization.id))) {
        baselineCycles += 1;
        if (baselineCycles > MAX_BASELINE_CYCLES) {
          throw new Error(`the first full sweep took more than ${MAX_BASELINE_CYCLES} cycles`);
        }
        await cycle(`baseline cycle ${baselineCycles}`);
      }
      const steady: Invocation[] = [];
      for (let i = 0; i < STEADY_CYCLES; i += 1) steady.push(await cycle(`steady cycle ${i + 1}`));
      // The last cycle set the next one a minute away: this trigger is the watchdog's usual one.
      const notDue = await invoke();
      if (notDue.result?.outcome !== 'not_due') {
        throw new Error(`a trigger before the due time ran: ${JSON.stringify(notDue.result)}`);
      }
      if (standIn.messagesSent !== baselineCycles + STEADY_CYCLES) {
        throw new Error(`${standIn.messagesSent} ticks sent for ${baselineCycles + STEADY_CYCLES} cycles`);
      }

      // Its output is all in the pipe already (writes to a pipe are synchronous on Linux); 'close' has read it.
      const closed = once(started.child, 'close');
      started.child.kill('SIGTERM');
      await closed;
      const output = splitByInvocation(started.stdout());
      const steadyIds = new Set(steady.map(({ id }) => id));
      const steadyBytes = [...output]
        .filter(([id]) => steadyIds.has(id))
        .reduce((sum, [, text]) => sum + Buffer.byteLength(text), 0);
      const all = [...steady, notDue];
      return {
        poller_lambda_memory_mb: bundle.memoryMb,
        poller_lambda_max_rss_mb: round(Math.max(...all.map(({ maxRssKb }) => maxRssKb)) / 1024, 1),
        poller_lambda_loaded_rss_mb: round(loadedRss / 1024 / 1024, 1),
        poller_lambda_cpu_ms_per_cycle: round(median(steady.map(({ cpuMs }) => cpuMs)), 0),
        poller_lambda_cycle_ms_loopback: round(median(steady.map(({ ms }) => ms)), 0),
        poller_lambda_requests_per_cycle: round(
          steady.reduce((sum, { result }) => sum + (result?.requests ?? 0), 0) / steady.length,
          1,
        ),
        poller_lambda_cpu_ms_not_due: round(notDue.cpuMs, 0),
        poller_log_bytes_per_cycle: Math.round(steadyBytes / steady.length),
        poller_custom_metrics_per_organization: organizationMetrics([...output.values()].join('')).size,
      };
    } finally {
      await fixture.close();
    }
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await standIn?.close();
    client.destroy();
    await dynamo.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The flags Lambda's Node.js runtime starts a function with: the stack's NODE_OPTIONS, and the heap limits
 * its bootstrap derives from the memory size (a tenth of it for the young generation, half of that per
 * semi-space, the rest for the old one), which bound how far the heap grows before it is collected.
 */
function lambdaNodeFlags(memoryMb: number): string[] {
  const newSpace = Math.floor(memoryMb / 10);
  return [
    '--enable-source-maps',
    `--max-semi-space-size=${Math.floor(newSpace / 2)}`,
    `--max-old-space-size=${memoryMb - newSpace}`,
  ];
}

function startChild(
  bundlePath: string,
  memoryMb: number,
  env: Record<string, string>,
): { child: ChildProcess; loadedRss: Promise<number>; stdout: () => string } {
  const child = spawn(
    process.execPath,
    [...lambdaNodeFlags(memoryMb), '--input-type=module', '-e', CHILD_SCRIPT, pathToFileURL(bundlePath).href],
    {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        PATH: process.env.PATH ?? '',
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        // What the stack sets beside the function's own variables (infra/notifierFunction.ts).
        POWERTOOLS_SERVICE_NAME: 'poller',
        POWERTOOLS_METRICS_NAMESPACE: 'MealOrderNotifier',
        ...env,
      },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4_000);
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the poller process exited (code ${code}) before answering:\n${stderr}`);
  });
  const ready = waitForMessage<{ ready: true; loadedRss: number }>(
    child,
    (message) => message.ready === true,
  );
  return {
    child,
    loadedRss: Promise.race([ready, exited]).then((message) => message.loadedRss),
    stdout: () => stdout,
  };
}

function waitForMessage<T>(child: ChildProcess, matches: (message: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: unknown) => {
      if (!matches(message as T)) return;
      child.off('message', listener);
      resolve(message as T);
    };
    child.on('message', listener);
  });
}

/** The child's stdout, by the invocation that wrote it. */
function splitByInvocation(stdout: string): Map<string, string> {
  const parts = new Map<string, string>();
  let current: string | undefined;
  for (const line of stdout.split('\n')) {
    if (line.startsWith(MARKER)) {
      current = line.slice(MARKER.length);
      parts.set(current, '');
    } else if (current !== undefined && line !== '') {
      parts.set(current, `${parts.get(current)}${line}\n`);
    }
  }
  return parts;
}

/** The names of the EMF metrics published with an `Organization` dimension. */
function organizationMetrics(output: string): Set<string> {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    if (!line.includes('"_aws"')) continue;
    const blob = JSON.parse(line) as {
      _aws: { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    };
    for (const directive of blob._aws.CloudWatchMetrics) {
      if (!directive.Dimensions.some((set) => set.includes('Organization'))) continue;
      for (const { Name } of directive.Metrics) names.add(Name);
    }
  }
  return names;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
