// The poller's bundle exactly as the stack deploys it: a CDK app holding the PollerFunction construct
// alone (with the table, secrets and tick queue it needs), synthesized with esbuild bundling on, so the
// bench measures the deployed code and its esbuild options, not a build of its own.
import { App, Stack } from 'aws-cdk-lib';
import { NotifierConfig } from '../../infra/notifierConfig.js';
import { NotifierSecrets } from '../../infra/notifierSecrets.js';
import { PollerFunction } from '../../infra/pollerFunction.js';
import { PollTickQueue } from '../../infra/pollTickQueue.js';
import { StateTable } from '../../infra/stateTable.js';

interface TemplateResource {
  Type: string;
  Properties?: { Code?: { S3Key?: string }; MemorySize?: number };
}

/**
 * Bundles the poller with `writtenConfig` compiled in, into `outdir`.
 * @returns the bundle's path (`…/index.mjs`) and the memory the stack gives the function
 */
export function bundlePoller(writtenConfig: unknown, outdir: string): { path: string; memoryMb: number } {
  const app = new App({ outdir });
  const stack = new Stack(app, 'PollerBench');
  const config = new NotifierConfig(writtenConfig, 'bench config');
  new PollerFunction(stack, 'Poller', {
    config,
    table: new StateTable(stack, 'State').table,
    secrets: new NotifierSecrets(stack, 'Secrets', { config: config.parsed }),
    ticks: new PollTickQueue(stack, 'Ticks'),
  });
  const assembly = app.synth();
  const template = assembly.getStackByName(stack.stackName).template as {
    Resources: Record<string, TemplateResource>;
  };
  const functions = Object.values(template.Resources).filter(
    (resource) => resource.Type === 'AWS::Lambda::Function',
  );
  const properties = functions[0]?.Properties;
  const key = properties?.Code?.S3Key;
  if (functions.length !== 1 || key === undefined || properties?.MemorySize === undefined) {
    throw new Error(`expected the poller's function alone in the bench stack, found ${functions.length}`);
  }
  return { path: `${outdir}/asset.${key.replace(/\.zip$/, '')}/index.mjs`, memoryMb: properties.MemorySize };
}
