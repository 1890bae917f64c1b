// The Lambda bundles as `cdk synth` builds them (the stack synthesized with the example config and its
// real esbuild bundling, into a temporary directory): each one's size, how long a fresh Node process
// takes to import it with the environment the template gives it, and then to answer a first, empty batch
// (what the handler builds on first use: its AWS clients and what stands on them), the medians of ten.
// NOTIFIER_BENCH_NODE=<path to node> times them on another Node than the one running the bench.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { SynthesizedBundle } from './support/synthBundlesChild.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SYNTH_CHILD = fileURLToPath(new URL('./support/synthBundlesChild.ts', import.meta.url));
const IMPORTS_PER_FUNCTION = 10;
/** The Node the bundles are timed on: the one running the bench, or another, such as Lambda's Node 24. */
const NODE = process.env.NOTIFIER_BENCH_NODE ?? process.execPath;
/** The functions an empty batch can be handed; the digest function's every run reads the state table. */
const TAKES_BATCHES = new Set(['poller', 'publisher', 'webhook-delivery', 'slack-delivery']);

export async function benchFunctionBundles(): Promise<Record<string, number>> {
  const outdir = await mkdtemp(join(tmpdir(), 'meal-notifier-bundles-'));
  try {
    const bundles = await synthesize(outdir);
    const functions = bundles.map((bundle) => ({
      ...bundle,
      imports: [] as number[],
      firstCalls: [] as number[],
    }));
    // One untimed start of each first (files just written, caches cold); then rounds across the
    // functions, so a burst of load from elsewhere falls on all of them alike rather than on one.
    for (const { service, bundle, environment } of functions) await coldStart(service, bundle, environment);
    for (let run = 0; run < IMPORTS_PER_FUNCTION; run += 1) {
      for (const { service, bundle, environment, imports, firstCalls } of functions) {
        const start = await coldStart(service, bundle, environment);
        imports.push(start.importMs);
        if (start.firstCallMs !== undefined) firstCalls.push(start.firstCallMs);
      }
    }
    const figures: Record<string, number> = {};
    for (const { service, bundle, imports, firstCalls } of functions) {
      // The source map sits beside the bundle and is not counted: Lambda reads it only for a stack trace.
      figures[`bundle_kb_${service}`] = Math.round((await stat(bundle)).size / 1024);
      figures[`cold_import_ms_${service}`] = Math.round(median(imports) * 10) / 10;
      if (firstCalls.length > 0)
        figures[`cold_first_call_ms_${service}`] = Math.round(median(firstCalls) * 10) / 10;
    }
    return figures;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

/** The stack synthesized in a child process, so this one stays idle while the imports are timed. */
async function synthesize(outdir: string): Promise<SynthesizedBundle[]> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SYNTH_CHILD, outdir], {
      cwd: ROOT,
      maxBuffer: 1 << 20,
    });
    return JSON.parse(stdout.trim().split('\n').pop() ?? '[]') as SynthesizedBundle[];
  } catch (error) {
    throw new Error(`synthesizing the stack with its bundles failed: ${firstErrorLine(error)}`);
  }
}

interface ColdStart {
  /** `import()` of the bundle: Lambda's init phase. */
  importMs: number;
  /** The handler's answer to an empty batch right after: what it builds on first use. */
  firstCallMs?: number;
}

/**
 * A new process, with the function's environment only (its NODE_OPTIONS, --enable-source-maps, included),
 * so nothing is cached and the handler's load-time work (environment, config) is counted as a cold start
 * would; the empty batch sends no request. The times come back on file descriptor 3, since stdout carries
 * the function's own log lines.
 */
async function coldStart(
  service: string,
  bundle: string,
  environment: Record<string, string>,
): Promise<ColdStart> {
  const script = `
    import { writeSync } from 'node:fs';
    const started = performance.now();
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const imported = performance.now();
    const times = { importMs: imported - started };
    if (${JSON.stringify(TAKES_BATCHES.has(service))}) {
      await handler({ Records: [] }, { awsRequestId: 'bench', getRemainingTimeInMillis: () => 30000 });
      times.firstCallMs = performance.now() - imported;
    }
    writeSync(3, JSON.stringify(times));
  `;
  const child = spawn(NODE, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '', ...environment },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let answer = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdio[3]?.on('data', (chunk: Buffer) => {
    answer += chunk.toString();
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) {
    throw new Error(
      `the ${service} bundle failed to start in a fresh process: ${firstErrorLine({ stderr })}`,
    );
  }
  const times = JSON.parse(answer || '{}') as Partial<ColdStart>;
  if (!Number.isFinite(times.importMs) || (TAKES_BATCHES.has(service) && !Number.isFinite(times.firstCallMs)))
    throw new Error(`the ${service} bundle's start reported ${JSON.stringify(answer)}`);
  return times as ColdStart;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The line of a child's stderr that names the error, else its first line. */
function firstErrorLine(error: unknown): string {
  const stderr = String((error as { stderr?: unknown }).stderr || error);
  return stderr.split('\n').find((line) => /Error\b/.test(line)) ?? stderr.trim().split('\n')[0] ?? '';
}
