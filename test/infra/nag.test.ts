// cdk-nag's AWS Solutions rules (v3, a validation plugin): no finding is left unacknowledged, and every
// acknowledgment names a finding that really occurs, with a reason a reviewer can judge.
import { App, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, type IApplyRule, NagRuleCompliance, type NagRuleResult } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { MealOrderNotifierStack } from '../../infra/mealOrderNotifierStack.js';
import { cdkJsonContext } from './support/cdkJsonContext.js';
import { exampleConfig, notifierApp } from './support/notifierApp.js';

interface Finding {
  rule: string;
  path: string;
}

/** The rules' findings that no acknowledgment silences, through the pack's public entry point. */
function findings(app: App): (Finding & { severity: string })[] {
  return new AwsSolutionsChecks().validateScope(app).violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => ({
      rule: violation.ruleName,
      severity: violation.severity ?? 'error',
      path: resource.constructPath ?? '',
    })),
  );
}

/**
 * The same rules, acknowledged or not: a pack that runs each rule itself through `applyRule`, the hook
 * cdk-nag gives custom packs, and records what it finds instead of consulting acknowledgments.
 */
class RawFindingsPack extends AwsSolutionsChecks {
  readonly raw: Finding[] = [];

  protected override applyRule(params: IApplyRule): void {
    const ruleId = `${this.readPackName}-${params.ruleSuffixOverride ?? params.rule.name}`;
    const path = params.node.node.path;
    let result: NagRuleResult;
    try {
      result = params.rule(params.node);
    } catch {
      // cdk-nag reports a rule that cannot evaluate a resource as a finding; so does this.
      result = NagRuleCompliance.NON_COMPLIANT;
    }
    if (result === NagRuleCompliance.NON_COMPLIANT) this.raw.push({ rule: ruleId, path });
    else if (Array.isArray(result))
      for (const id of result) this.raw.push({ rule: `${ruleId}[${id}]`, path });
  }
}

function rawFindings(app: App): Finding[] {
  const pack = new RawFindingsPack();
  pack.validateScope(app);
  return pack.raw;
}

/** Every acknowledgment in the tree: where, which rule, why. */
function acknowledgments(app: App): (Finding & { reason: string })[] {
  return app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          rule: id.replace(/^annotation::/i, ''),
          path: construct.node.path,
          reason,
        })),
      ),
  );
}

// The example, plus what adds resources: a second organization, a disabled webhook with two secrets, an
// unfiltered Slack channel, an e-mail digest (its function and schedule), and an alarm e-mail.
const richConfig = exampleConfig();
const [north] = richConfig.organizations;
richConfig.organizations.push({
  ...north,
  id: '0d7c9a2e-1f3b-4c5d-8e6f-7a8b9c0d1e2f',
  name: 'East School',
  token: { env: 'EAST_TOKEN' },
});
richConfig.subscribers.push(
  { id: 'all-orders', type: 'slack', webhookUrl: { env: 'ALL_ORDERS_SLACK_URL' } },
  {
    id: 'paused',
    type: 'webhook',
    url: 'https://paused.example.org/hooks',
    secret: [{ env: 'PAUSED_OLD' }, { env: 'PAUSED_NEW' }],
    enabled: false,
  },
  {
    id: 'office-digest',
    type: 'email',
    to: ['digest@north-school.example.org'],
    digest: { every: '1h', types: ['order.created'] },
  },
);

/**
 * IAM5 on the publisher (two), the poll schedules' role, the watchdog (the alarm topic's key, for its
 * notice), and with a digest its function and schedule role.
 */
const IAM5 = 'AwsSolutions-IAM5';

describe.each([
  ['the example config', notifierApp(), [IAM5, IAM5, IAM5, IAM5]],
  [
    'a config with more of everything',
    notifierApp(richConfig, { props: { alarmEmail: 'oncall@example.org' } }),
    [IAM5, IAM5, IAM5, IAM5, IAM5, IAM5],
  ],
])('AwsSolutionsChecks on %s', (_name, { app }, iam5) => {
  it('leaves no finding unacknowledged, error or warning', () => {
    expect(findings(app)).toEqual([]);
  });

  it('acknowledges only findings that occur, each at or above the resource it concerns, with a reason', () => {
    const raw = rawFindings(app);
    const acknowledged = acknowledgments(app);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const acknowledgment of acknowledged) {
      const silenced = raw.filter(
        (finding) =>
          finding.rule === acknowledgment.rule &&
          (finding.path === acknowledgment.path || finding.path.startsWith(`${acknowledgment.path}/`)),
      );
      expect(silenced, `${acknowledgment.rule} at ${acknowledgment.path}`).not.toEqual([]);
      expect(acknowledgment.reason.length, acknowledgment.rule).toBeGreaterThan(60);
    }
    expect(acknowledged.map(({ rule }) => rule.replace(/\[.*$/, '')).sort()).toEqual(
      [...iam5, 'AwsSolutions-SMG4', 'AwsSolutions-SQS3', 'AwsSolutions-SQS3'].sort(),
    );
  });
});

describe('the app with the plugin registered, as app.ts registers it', () => {
  const registeredApp = () => {
    const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
    const stack = new MealOrderNotifierStack(app, 'MealOrderNotifier', { config: exampleConfig() });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    return { app, stack };
  };

  it('synthesizes', () => {
    expect(() => registeredApp().app.synth()).not.toThrow();
  });

  it('fails the synth on a finding, which is what keeps `cdk synth` honest', () => {
    const { app, stack } = registeredApp();
    new Queue(stack, 'Careless', { encryption: QueueEncryption.UNENCRYPTED });
    expect(() => app.synth()).toThrow(/AwsSolutions-SQS4/);
  });
});
