// Child process of the bundle bench: synthesizes the stack with its real esbuild bundling into OUTDIR,
// as `cdk synth` builds it, and prints each function's bundle path and deployed environment as one JSON
// line. Apart, so the bench process, where the imports are timed, is not busy collecting the CDK's heap.
// Usage: node --import tsx bench/support/synthBundlesChild.ts OUTDIR
import { join } from 'node:path';
import {
  exampleConfigWithDigest,
  functionEnvironment,
  functionLogicalId,
  notifierApp,
  property,
  REGION,
  resourcesOfType,
} from '../../test/infra/support/notifierApp.js';

export const BUNDLED_FUNCTIONS = [
  'poller',
  'publisher',
  'webhook-delivery',
  'slack-delivery',
  'digest',
] as const;

export interface SynthesizedBundle {
  service: (typeof BUNDLED_FUNCTIONS)[number];
  /** The function's `index.mjs`. */
  bundle: string;
  /** What Lambda gives the function: the template's variables, and AWS_REGION. */
  environment: Record<string, string>;
}

const [outdir] = process.argv.slice(2);
if (!outdir) throw new Error('usage: synthBundlesChild OUTDIR');

// With a digest, so the digest function is bundled too.
const { template } = notifierApp(exampleConfigWithDigest(), { bundle: true, outdir });
const bundles: SynthesizedBundle[] = BUNDLED_FUNCTIONS.map((service) => {
  const id = functionLogicalId(template, service);
  const [, resource] =
    resourcesOfType(template, 'AWS::Lambda::Function').find(([candidate]) => candidate === id) ?? [];
  const key = property<{ S3Key: string }>(resource?.Properties, 'Code').S3Key;
  return {
    service,
    bundle: join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs'),
    environment: { AWS_REGION: REGION, ...functionEnvironment(template, id) },
  };
});
process.stdout.write(`${JSON.stringify(bundles)}\n`);
