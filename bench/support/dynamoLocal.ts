// Starts and stops the official DynamoDB Local (the jar inside amplify-dynamodb-simulator), in memory on a
// free loopback port. Shared by the vitest global setup and the benchmarks.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/**
 * The JVM answers within seconds on a quiet 2-core machine. Starved of CPU (two busy processes beside the test
 * run, or other work's), it took over 30 s: it is slow, not stuck, and starting it again would only begin
 * that wait anew. Two minutes still fails a JVM that truly hangs, before CI's own limits would.
 */
const READY_DEADLINE_MS = 120_000;
const STOP_DEADLINE_MS = 5_000;
/**
 * Another process may take the free port between our probe and Java's bind; then Java exits, and we try a
 * new port. A JVM still starting at the deadline is not tried again.
 */
const START_ATTEMPTS = 3;

export interface RunningDynamoLocal {
  /** e.g. `http://127.0.0.1:43210`. */
  endpoint: string;
  /** Milliseconds from spawning Java to the first answered request. */
  startupMs: number;
  /** Stops the Java process (SIGTERM, then SIGKILL); safe to call twice. */
  stop(): Promise<void>;
}

/** Starts DynamoDB Local; it is killed when this process exits, even if `stop` is never called. */
export async function startDynamoLocal(): Promise<RunningDynamoLocal> {
  const emulatorDir = join(
    dirname(createRequire(import.meta.url).resolve('amplify-dynamodb-simulator/package.json')),
    'emulator',
  );
  let failure: Error | undefined;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt += 1) {
    const started = Date.now();
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const child = startJava(emulatorDir, port);
    try {
      await waitUntilReady(child, endpoint);
    } catch (error) {
      await stop(child.process);
      if (error instanceof NotReadyInTime) throw error;
      failure = error as Error;
      continue;
    }
    const stopOnExit = () => child.process.kill('SIGKILL');
    process.once('exit', stopOnExit);
    return {
      endpoint,
      startupMs: Date.now() - started,
      stop: async () => {
        process.off('exit', stopOnExit);
        await stop(child.process);
      },
    };
  }
  throw failure ?? new Error('DynamoDB Local did not start');
}

/** A client for a DynamoDB Local endpoint; refuses anything but loopback. */
export function dynamoLocalClient(endpoint: string): DynamoDBClient {
  if (!new URL(endpoint).hostname.startsWith('127.')) throw new Error(`not a loopback endpoint: ${endpoint}`);
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

interface JavaProcess {
  process: ChildProcess;
  /** Everything it printed, for the error message if it never becomes ready. */
  output(): string;
  exited: Promise<number | null>;
}

function startJava(emulatorDir: string, port: number): JavaProcess {
  const child = spawn(
    'java',
    [
      // A short-lived server: skip the optimizing JIT tier and use the simplest collector to start fast.
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      `-Djava.library.path=${join(emulatorDir, 'DynamoDBLocal_lib')}`,
      '-jar',
      'DynamoDBLocal.jar',
      '-inMemory',
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    {
      cwd: emulatorDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DDB_LOCAL_TELEMETRY: '0' },
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      collect(Buffer.from(`\n${error.message}`));
      resolve(null);
    });
  });
  return { process: child, output: () => output, exited };
}

/** Polls ListTables with a growing backoff until it answers, the process dies, or the deadline passes. */
async function waitUntilReady(java: JavaProcess, endpoint: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  let exitCode: number | null | undefined;
  void java.exited.then((code) => {
    exitCode = code;
  });
  const deadline = Date.now() + READY_DEADLINE_MS;
  let delayMs = 25;
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (exitCode !== undefined) {
          throw new Error(`DynamoDB Local exited (code ${exitCode}) before answering:\n${java.output()}`);
        }
        if (Date.now() > deadline) {
          throw new NotReadyInTime(
            `DynamoDB Local did not answer within ${READY_DEADLINE_MS} ms (${(error as Error).message}):\n${java.output()}`,
          );
        }
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 250);
    }
  } finally {
    client.destroy();
  }
}

/** Still starting at the deadline: a JVM that hangs, not a port another process took. */
class NotReadyInTime extends Error {}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
