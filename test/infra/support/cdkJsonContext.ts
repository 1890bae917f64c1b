// The context cdk.json gives the app (its settled feature flags), as `cdk synth` and `cdk deploy` hand it
// over: tests build their apps with it, so the template they check is the one a deploy makes.
import { readFileSync } from 'node:fs';

const CDK_JSON = new URL('../../../cdk.json', import.meta.url);

export function cdkJsonContext(): Record<string, unknown> {
  const { context } = JSON.parse(readFileSync(CDK_JSON, 'utf8')) as { context?: Record<string, unknown> };
  return { ...context };
}
