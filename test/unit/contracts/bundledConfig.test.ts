// The config compiled into a function's bundle is the stack's parse of it, with a digest: the function
// takes it as it is when the digest matches, so a cold start builds no config schema; NOTIFIER_CONFIG set
// in the environment, or compiled text that is not the checked form, is parsed in full as before.
import { afterEach, describe, expect, it } from 'vitest';
import { NotifierConfig } from '../../../infra/notifierConfig.js';
import type { Config } from '../../../shared/config/configSchema.js';
import { ConfigError } from '../../../shared/config/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import {
  awsDefaultIntervals,
  BUNDLED_CONFIG_GLOBAL,
  checkedConfigText,
  functionConfig,
} from '../../../shared/contracts/bundledConfig.js';

const WRITTEN = {
  api: { baseUrl: 'https://example.test/api/v1/admin' },
  organizations: [
    {
      id: '3F2B8C1E-5D4A-4E6B-9C7D-1A2B3C4D5E6F',
      name: 'North School',
      token: { env: 'NORTH_TOKEN' },
      timeZone: 'Europe/Lisbon',
    },
  ],
};

/** esbuild replaces the identifier with the compiled text; unbundled, a global of that name stands in. */
function compile(text: string): void {
  Object.assign(globalThis, { [BUNDLED_CONFIG_GLOBAL]: text });
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>)[BUNDLED_CONFIG_GLOBAL];
});

describe('functionConfig', () => {
  it('reads the compiled config as the parser returned it at synth, defaults filled in', () => {
    const parsed = parseConfig(WRITTEN);
    compile(checkedConfigText(parsed));
    const config = functionConfig({});
    expect(config).toEqual(parsed);
    expect(config.organizations[0]?.id).toBe('3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f');
    expect(config.organizations[0]?.pollIntervalSeconds).toBe(10);
  });

  it('takes a compiled config whose digest matches as the stack checked it, without parsing it again', () => {
    const parsed = parseConfig(WRITTEN);
    const organization = parsed.organizations[0] as Config['organizations'][number];
    // A zone the parser refuses: only a parse at import would notice, and there is none.
    compile(checkedConfigText({ ...parsed, organizations: [{ ...organization, timeZone: 'Mars/Olympus' }] }));
    expect(functionConfig({}).organizations[0]?.timeZone).toBe('Mars/Olympus');
  });

  it('parses a compiled config in full when its digest does not match, naming NOTIFIER_CONFIG', () => {
    const checked = JSON.parse(checkedConfigText(parseConfig(WRITTEN))) as { config: string };
    compile(JSON.stringify({ ...checked, config: checked.config.replace('Europe/Lisbon', 'Europe/Lisbn') }));
    expect(() => functionConfig({})).toThrow(ConfigError);
    expect(() => functionConfig({})).toThrow(
      /NOTIFIER_CONFIG: 1 problem\n {2}\$\.organizations\[0\]\.timeZone/,
    );
  });

  it('parses compiled text that is not the checked form in full, as written config', () => {
    compile(JSON.stringify(WRITTEN));
    expect(functionConfig({})).toEqual(parseConfig(WRITTEN));
  });

  it('lets NOTIFIER_CONFIG in the environment take precedence, always parsed in full', () => {
    compile(checkedConfigText(parseConfig(WRITTEN)));
    const other = { ...WRITTEN, organizations: [{ ...WRITTEN.organizations[0], name: 'South School' }] };
    expect(functionConfig({ NOTIFIER_CONFIG: JSON.stringify(other) }).organizations[0]?.name).toBe(
      'South School',
    );
    // Even in the checked form: a digest anyone can compute vouches for nothing set by hand.
    const unchecked = { ...parseConfig(WRITTEN), api: { baseUrl: 'ftp://x', requestsPerMinute: 50 } };
    expect(() => functionConfig({ NOTIFIER_CONFIG: checkedConfigText(unchecked) })).toThrow(ConfigError);
  });

  it('names NOTIFIER_CONFIG when there is no config at all', () => {
    expect(() => functionConfig({})).toThrow(/NOTIFIER_CONFIG/);
  });
});

describe('awsDefaultIntervals', () => {
  it('names the organizations the stack gave the AWS default interval, and not one that wrote 60 itself', () => {
    const written = {
      ...WRITTEN,
      organizations: [
        ...WRITTEN.organizations,
        {
          id: '0d7c9a2e-1f3b-4c5d-8e6f-7a8b9c0d1e2f',
          name: 'East School',
          token: { env: 'EAST_TOKEN' },
          timeZone: 'Europe/Lisbon',
          pollIntervalSeconds: 60,
        },
      ],
    };
    const notifier = new NotifierConfig(written);
    const poller = notifier.pollerConfig();
    // Both read 60 once parsed: only the compiled facts tell them apart.
    expect(poller.organizations.map((organization) => organization.pollIntervalSeconds)).toEqual([60, 60]);
    compile(checkedConfigText(poller, { awsDefaultIntervals: notifier.awsDefaultIntervals }));
    expect([...awsDefaultIntervals({})]).toEqual(['3F2B8C1E-5D4A-4E6B-9C7D-1A2B3C4D5E6F'.toLowerCase()]);
    // NOTIFIER_CONFIG set by hand: every interval is taken as written.
    expect([...awsDefaultIntervals({ NOTIFIER_CONFIG: '{}' })]).toEqual([]);
  });
});
