// cdk.json settles every feature flag the CDK library knows, so `cdk synth` has no "feature flags are not
// configured" notice to print: each one at its recommended value, except the one that widens what CDK
// reports about the app to AWS, kept off as cdk.json keeps the CLI's telemetry off. A newer aws-cdk-lib
// with new flags fails here until they are settled.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notifierApp } from './support/notifierApp.js';

interface FlagReport {
  artifacts: Record<
    string,
    {
      type: string;
      properties?: { flags?: Record<string, { userValue?: unknown; recommendedValue?: unknown }> };
    }
  >;
}

/** The feature flag report the app writes into its cloud assembly, which `cdk synth` and `cdk flags` read. */
function reportedFlags(): Record<string, { userValue?: unknown; recommendedValue?: unknown }> {
  const { app } = notifierApp();
  const { directory } = app.synth();
  const manifest = JSON.parse(readFileSync(join(directory, 'manifest.json'), 'utf8')) as FlagReport;
  const report = Object.values(manifest.artifacts).find(({ type }) => type === 'cdk:feature-flag-report');
  return report?.properties?.flags ?? {};
}

describe('the feature flags in cdk.json', () => {
  const flags = reportedFlags();

  it('set every flag the CDK library reports', () => {
    expect(Object.keys(flags).length).toBeGreaterThan(50);
    const unset = Object.entries(flags).filter(([, flag]) => flag.userValue === undefined);
    expect(unset.map(([name]) => name)).toEqual([]);
  });

  it('take the recommended values, but for the wider usage data sent to AWS', () => {
    const differing = Object.entries(flags)
      .filter(([, flag]) => JSON.stringify(flag.userValue) !== JSON.stringify(flag.recommendedValue))
      .map(([name, flag]) => [name, flag.userValue]);
    expect(differing).toEqual([['@aws-cdk/core:enableAdditionalMetadataCollection', false]]);
  });
});
