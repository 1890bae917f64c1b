// The stack refuses at synth time a config CloudFormation or CloudWatch would refuse halfway through a
// deployment (500 resources, 200 outputs, 500 dashboard widgets, SNS's 200 filter policies on a topic),
// naming the count and the way out; organizations add nothing to count (test/infra/scale.test.ts synthesizes
// 1,000 of them).
import { describe, expect, it } from 'vitest';
import { DeploymentError } from '../../infra/deploymentError.js';
import { DEFAULT_FILTER_POLICIES_PER_TOPIC, STACK_LIMITS } from '../../infra/stackLimits.js';
import { exampleConfig, notifierApp, resourcesOfType } from './support/notifierApp.js';

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
  it('adds no dashboard widget for an organization: 170 of them, past the 500 widgets a row each once took, fit', () => {
    const widgets = (organizations: number) => notifierApp(withOrganizations(organizations)).stack;
    const many = widgets(170);
    expect(many.dashboardWidgetCount).toBe(widgets(1).dashboardWidgetCount);
    expect(many.dashboardWidgetCount).toBeLessThan(STACK_LIMITS.dashboardWidgets);
    // A hang guard, not a timing: 171 organizations synthesize in seconds alone, several times that on a
    // machine running other tests.
  }, 180_000);

  it('refuses more filtered subscriptions on the event topic than SNS allows: 250 e-mail recipients with digests', () => {
    expect(DEFAULT_FILTER_POLICIES_PER_TOPIC).toBe(200);
    expect(() => notifierApp(withRecipients(250))).toThrow(DeploymentError);
    expect(() => notifierApp(withRecipients(250))).toThrow(
      /^the config needs 50\d filtered subscriptions on the event topic \(SNS allows 200 filter policies on a topic\) in stack MealOrderNotifier: .* -c snsFilterPolicies=<n>$/,
    );
  });

  it('deploys up to the quota, and past 200 with a raised one (-c snsFilterPolicies)', () => {
    // 2 subscriptions a recipient (at once, and its digests), beside the example's 3 queue and e-mail ones.
    const { template } = notifierApp(withRecipients(98));
    expect(
      resourcesOfType(template, 'AWS::SNS::Subscription').filter(([, s]) => s.Properties?.FilterPolicy)
        .length,
    ).toBeLessThanOrEqual(200);
    expect(() => notifierApp(withRecipients(110))).toThrow('SNS allows 200 filter policies on a topic');
    const raised = notifierApp(withRecipients(110), { props: { snsFilterPolicies: 300 } });
    expect(resourcesOfType(raised.template, 'AWS::SNS::Subscription').length).toBeGreaterThan(200);
  }, 60_000);
});

/** The example config with one e-mail subscriber of `count` recipients, each taking events at once and digests. */
function withRecipients(count: number) {
  const config = exampleConfig();
  config.subscribers.push({
    id: 'all-parents',
    type: 'email',
    to: Array.from({ length: count }, (_, index) => `parent${index}@north-school.example.org`),
    digest: { every: '1d', at: '17:30', types: ['order.created'] },
  });
  return config;
}
