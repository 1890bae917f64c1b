// The Lambda bundles as `cdk synth` builds them (the stack synthesized with the example config and its
// real esbuild bundling, into a temporary directory): each one's size, and how long a fresh Node process
// takes to import it with the environment the template gives it, the median of five.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import {
  functionEnvironment,
  functionLogicalId,
  notifierApp,
  property,
  REGION,
  resourcesOfType,
} from '../test/infra/support/notifierApp.js';

const FUNCTIONS = ['poller', 'publisher', 'webhook-delivery', 'slack-delivery'] as const;
const IMPORTS_PER_FUNCTION = 5;

export async function benchFunctionBundles(): Promise<Record<string, number>> {
  const outdir = await mkdtemp(join(tmpdir(), 'meal-notifier-bundles-'));
  try {
    const { template } = notifierApp(undefined, { bundle: true, outdir });
    const figures: Record<string, number> = {};
    for (const service of FUNCTIONS) {
      const id = functionLogicalId(template, service);
      const [, resource] =
        resourcesOfType(template, 'AWS::Lambda::Function').find(([candidate]) => candidate === id) ?? [];
      const key = property<{ S3Key: string }>(resource?.Properties, 'Code').S3Key;
      const bundle = join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs');
      // The source map sits beside the bundle and is not counted: Lambda reads it only for a stack trace.
      figures[`bundle_kb_${service}`] = Math.round((await stat(bundle)).size / 1024);
      const environment = functionEnvironment(template, id);
      const times: number[] = [];
      for (let run = 0; run < IMPORTS_PER_FUNCTION; run += 1) {
        times.push(await importMs(service, bundle, environment));
      }
      figures[`cold_import_ms_${service}`] = Math.round(median(times) * 10) / 10;
    }
    return figures;
  } finally {
    await rm(outdir, { recursive: true, force: true });
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
      env: { PATH: process.env.PATH ?? '', AWS_REGION: REGION, ...environment },
    }));
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? error);
    const reason = stderr.split('\n').find((line) => /Error\b/.test(line)) ?? stderr.trim().split('\n')[0];
    throw new Error(`the ${service} bundle failed to load in a fresh process: ${reason}`);
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
