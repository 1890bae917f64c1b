// The Lambda bundles as `cdk synth` builds them (the stack synthesized with the example config and its
// real esbuild bundling, into a temporary directory): each one's size, and how long a fresh Node process
// takes to import it with the environment the template gives it, the median of five.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { SynthesizedBundle } from './support/synthBundlesChild.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SYNTH_CHILD = fileURLToPath(new URL('./support/synthBundlesChild.ts', import.meta.url));
const IMPORTS_PER_FUNCTION = 5;

export async function benchFunctionBundles(): Promise<Record<string, number>> {
  const outdir = await mkdtemp(join(tmpdir(), 'meal-notifier-bundles-'));
  try {
    const bundles = await synthesize(outdir);
    const functions = bundles.map((bundle) => ({ ...bundle, times: [] as number[] }));
    // One untimed import of each first (files just written, caches cold); then rounds across the
    // functions, so a burst of load from elsewhere falls on all of them alike rather than on one.
    for (const { service, bundle, environment } of functions) await importMs(service, bundle, environment);
    for (let run = 0; run < IMPORTS_PER_FUNCTION; run += 1) {
      for (const { service, bundle, environment, times } of functions) {
        times.push(await importMs(service, bundle, environment));
      }
    }
    const figures: Record<string, number> = {};
    for (const { service, bundle, times } of functions) {
      // The source map sits beside the bundle and is not counted: Lambda reads it only for a stack trace.
      figures[`bundle_kb_${service}`] = Math.round((await stat(bundle)).size / 1024);
      figures[`cold_import_ms_${service}`] = Math.round(median(times) * 10) / 10;
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

/**
 * Milliseconds for `import()` of the bundle in a new process, with the function's environment only (its
 * NODE_OPTIONS, --enable-source-maps, included), so nothing is cached and the handler's load-time work
 * (environment, config, clients) is counted as a cold start would.
 */
async function importMs(
  service: string,
  bundle: string,
  environment: Record<string, string>,
): Promise<number> {
  const script = `
    const started = performance.now();
    await import(${JSON.stringify(pathToFileURL(bundle).href)});
    process.stdout.write(String(performance.now() - started));
  `;
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', ...environment },
    }));
  } catch (error) {
    throw new Error(`the ${service} bundle failed to load in a fresh process: ${firstErrorLine(error)}`);
  }
  const ms = Number(stdout);
  if (!Number.isFinite(ms))
    throw new Error(`the ${service} bundle's import printed ${JSON.stringify(stdout)}`);
  return ms;
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
