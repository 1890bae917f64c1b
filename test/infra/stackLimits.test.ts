// The stack refuses at synth time a config CloudFormation or CloudWatch would refuse halfway through a
// deployment (500 resources, 200 outputs, 500 dashboard widgets), naming the count and the way out; the
// organization count the README promises still fits.
import { describe, expect, it } from 'vitest';
import { DeploymentError } from '../../infra/deploymentError.js';
import { STACK_LIMITS } from '../../infra/stackLimits.js';
import { exampleConfig, notifierApp } from './support/notifierApp.js';

/** The example config (one webhook, one Slack channel, one e-mail subscriber) with `count` organizations. */
function withOrganizations(count: number) {
  const config = exampleConfig();
  const [organization] = config.organizations;
  config.organizations = Array.from({ length: count }, (_, index) => ({
    ...organization,
    id: `0e9a0000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    name: `School ${index}`,
    token: { env: `SCHOOL_${index}_TOKEN` },
  }));
  return config;
}

describe('stack limits', () => {
  it('deploys the 150 organizations the README promises beside the example subscribers', () => {
    const { template } = notifierApp(withOrganizations(150));
    const json = template.toJSON() as { Resources: object; Outputs: object };
    expect(Object.keys(json.Resources).length).toBeLessThanOrEqual(STACK_LIMITS.resources);
    expect(Object.keys(json.Outputs).length).toBeLessThanOrEqual(STACK_LIMITS.outputs);
    // A hang guard, not a timing: synthesizing 150 organizations takes 7 s alone and 4 times that on a
    // machine running other tests.
  }, 90_000);

  it('refuses a config that needs more dashboard widgets than CloudWatch takes, saying how to split it', () => {
    expect(() => notifierApp(withOrganizations(170))).toThrow(DeploymentError);
    expect(() => notifierApp(withOrganizations(170))).toThrow(
      /^the config needs 5\d\d dashboard widgets \(the limit is 500\) in stack MealOrderNotifier: split its organizations or subscribers across two configs, each deployed under its own -c stackName$/,
    );
  });
});
