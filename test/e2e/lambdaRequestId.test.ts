// Every log line a function writes names the invocation it belongs to: each bundle from `cdk synth` (the
// poller, the publisher, the digest and both delivery functions), run as Lambda runs it in a fresh Node
// process with a context holding its request id, writes that id as `function_request_id` (Powertools'
// key) on every JSON line, the EMF metric blobs aside. CloudWatch Logs Insights then finds all of one
// invocation's lines, and the lines of a failed one beside Lambda's own REPORT line.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SERVICE_NAMES } from '../../shared/contracts/customMetrics.js';
import { exampleConfigWithDigest, functionLogicalId, notifierApp } from '../infra/support/notifierApp.js';
import type { BundledRun } from '../support/bundledHandler.js';
import { createLocalStateTable, type LocalTable } from '../support/dynamoLocal.js';
import { type FakeAwsServices, startFakeAwsServices } from '../support/fakeAwsServices.js';
import { sqsRecord } from '../support/lambdaRecords.js';
import {
  ACCOUNT,
  invokeLocalFunction,
  type LocalFunction,
  LocalWiring,
  lambdaEnvironment,
  REGION,
} from '../support/localWiring.js';

let aws: FakeAwsServices;
let table: LocalTable;
let outdir: string;
let wiring: LocalWiring;
let functionIds: Record<keyof typeof SERVICE_NAMES, string>;

beforeAll(async () => {
  aws = await startFakeAwsServices();
  table = await createLocalStateTable();
  outdir = await mkdtemp(join(tmpdir(), 'lambda-request-id-'));
  // The example config with a digest: all five functions. Nothing here reaches its API or receivers.
  const { template } = notifierApp(exampleConfigWithDigest(), { bundle: true, outdir });
  wiring = new LocalWiring(template, outdir, {
    tableName: table.tableName,
    streamArn: `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${table.tableName}/stream/local`,
    queueUrl: (logicalId) => aws.queueUrl(ACCOUNT, logicalId),
  });
  functionIds = {
    poller: functionLogicalId(template, SERVICE_NAMES.poller),
    watchdog: functionLogicalId(template, SERVICE_NAMES.watchdog),
    publisher: functionLogicalId(template, SERVICE_NAMES.publisher),
    webhook: functionLogicalId(template, SERVICE_NAMES.webhook),
    slack: functionLogicalId(template, SERVICE_NAMES.slack),
    digest: functionLogicalId(template, SERVICE_NAMES.digest),
  };
}, 120_000);

afterAll(async () => {
  await Promise.all([aws?.close(), table?.drop()]);
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

/** What Lambda gives the function, pointed at this run's loopback services. */
function environmentOf(fn: LocalFunction): Record<string, string> {
  return lambdaEnvironment(fn, {
    scratch: outdir,
    dynamoEndpoint: inject('dynamoEndpoint'),
    endpointEnvironment: aws.endpointEnvironment,
  });
}

async function invoke(functionId: string, event: unknown, awsRequestId: string): Promise<BundledRun> {
  const fn = wiring.function(functionId);
  const run = await invokeLocalFunction(fn, { env: environmentOf(fn), event, awsRequestId });
  expect(run.answer, `${functionId}: ${run.stderr}`).toMatchObject({ ok: true });
  return run;
}

/**
 * The function's JSON log lines, from both streams Lambda sends to CloudWatch Logs (the Logger writes warnings
 * and errors to stderr); not the EMF blobs Metrics writes beside them.
 */
function logLines(run: BundledRun): Record<string, unknown>[] {
  return `${run.stdout}\n${run.stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => !('_aws' in line));
}

/** A record of the queue the function's one mapping reads, with a body that is no event. */
function notAnEventFrom(functionId: string) {
  const mapping = wiring.eventSourceMappings().find((candidate) => candidate.functionId === functionId);
  if (!mapping) throw new Error(`no queue is mapped to ${functionId}`);
  return {
    Records: [{ ...sqsRecord({ body: 'not an event', queue: 'unused' }), eventSourceARN: mapping.sourceArn }],
  };
}

describe('the bundled functions’ log lines', () => {
  it('each carry the request id of the invocation that wrote them, in every function', async () => {
    const organizationId = (exampleConfigWithDigest().organizations[0] as { id: string }).id;
    // Each invocation does something it logs: a token not put yet, a tick that is none, a stream batch, a
    // digest run, a message dead-lettered as malformed.
    const invocations: Array<[keyof typeof SERVICE_NAMES, unknown]> = [
      ['poller', { organizationId }],
      ['poller', { Records: [sqsRecord({ body: 'not a tick', queue: 'ticks' })] }],
      ['publisher', { Records: [] }],
      ['digest', {}],
      ['webhook', notAnEventFrom(functionIds.webhook)],
      ['slack', notAnEventFrom(functionIds.slack)],
    ];
    const runs = await Promise.all(
      invocations.map(([name, event], index) =>
        invoke(functionIds[name], event, `request-${index}-${name}`).then((run) => ({ name, run })),
      ),
    );
    for (const { name, run } of runs) {
      const lines = logLines(run);
      expect(lines.length, `${name} logged nothing`).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line, `${name}: ${JSON.stringify(line)}`).toMatchObject({
          function_request_id: run.awsRequestId,
          function_name: wiring.function(functionIds[name]).logicalId,
        });
      }
    }
  }, 60_000);
});
