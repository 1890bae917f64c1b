// Invokes a function bundle from `cdk synth` as Lambda would: a fresh Node process with only the given
// environment imports the bundle and calls `handler(event, context)` once; the event goes in on stdin and
// the answer comes back on file descriptor 3, since stdout carries the function's own log lines. Host
// names other than `localhost` do not resolve in that process, so nothing it does can leave loopback.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

export interface BundledInvocation {
  /** The bundle's entry, e.g. `<cdk.out>/asset.<hash>/index.mjs`. */
  bundle: string;
  /** The export Lambda calls (the part of `Handler` after the dot). @default 'handler' */
  exportName?: string;
  /** The whole environment of the process (nothing is inherited). */
  env: Record<string, string>;
  event: unknown;
  /** Names the function in the context object. */
  functionName: string;
  /** The function's timeout: the process is killed past it. */
  timeoutSeconds: number;
  /** The Node binary. @default process.execPath */
  node?: string;
  /** The invocation's id in the context. @default a random UUID */
  awsRequestId?: string;
}

export type HandlerAnswer =
  | { ok: true; result: unknown }
  | { ok: false; errorType: string; errorMessage: string };

export interface BundledRun {
  /** The context's request id: Lambda's id of this invocation. */
  awsRequestId: string;
  answer: HandlerAnswer | undefined;
  exitCode: number | null;
  /** The function's log lines (Powertools Logger and EMF write JSON lines here). */
  stdout: string;
  stderr: string;
}

/** Loaded before the bundle: refuses DNS for every name but localhost, and calls the handler. */
const RUNNER = `
import dns from 'node:dns';
import { writeSync } from 'node:fs';
const lookup = dns.lookup;
dns.lookup = (hostname, options, callback) => {
  if (hostname === 'localhost') return lookup(hostname, options, callback);
  const done = typeof options === 'function' ? options : callback;
  const error = Object.assign(new Error('getaddrinfo ENOTFOUND ' + hostname + ' (this run may reach loopback only)'), { code: 'ENOTFOUND', hostname });
  process.nextTick(() => done(error));
};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { bundle, exportName, event, context } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const deadline = Date.now() + context.timeoutMs;
const answer = (value) => writeSync(3, JSON.stringify(value));
try {
  const handler = (await import(bundle))[exportName];
  if (typeof handler !== 'function') throw new TypeError(bundle + ' exports no function ' + exportName);
  const result = await handler(event, { ...context, getRemainingTimeInMillis: () => deadline - Date.now() });
  answer({ ok: true, result: result ?? null });
} catch (error) {
  answer({ ok: false, errorType: error?.name ?? 'Error', errorMessage: String(error?.message ?? error) });
  console.error(error);
  process.exit(1);
}
// Lambda freezes the process here; open sockets (keep-alive pools) must not keep it running.
process.exit(0);
`;

export function invokeBundle(invocation: BundledInvocation): Promise<BundledRun> {
  const context = {
    awsRequestId: invocation.awsRequestId ?? randomUUID(),
    functionName: invocation.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${invocation.env.AWS_REGION}:123456789012:function:${invocation.functionName}`,
    memoryLimitInMB: invocation.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '128',
    logGroupName: `/aws/lambda/${invocation.functionName}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: true,
    timeoutMs: invocation.timeoutSeconds * 1000,
  };
  const child = spawn(invocation.node ?? process.execPath, ['--input-type=module', '-e', RUNNER], {
    env: invocation.env,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    timeout: invocation.timeoutSeconds * 1000,
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const answer: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => answer.push(chunk));
  child.stdin?.end(
    JSON.stringify({
      bundle: pathToFileURL(invocation.bundle).href,
      exportName: invocation.exportName ?? 'handler',
      event: invocation.event,
      context,
    }),
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => {
      const text = Buffer.concat(answer).toString('utf8');
      resolve({
        awsRequestId: context.awsRequestId,
        answer: text ? (JSON.parse(text) as HandlerAnswer) : undefined,
        exitCode,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      });
    });
  });
}
