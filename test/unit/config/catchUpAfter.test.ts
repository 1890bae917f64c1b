// `catchUpAfter`: a Slack or e-mail subscriber's threshold, written as the digest's period is ("15m",
// "2h", "1d"), 15 minutes when left out, false to get every event however late; never on a webhook.
import { describe, expect, it } from 'vitest';
import { catchUpAfterMs, catchUpThresholds, parseCatchUpAfter } from '../../../shared/config/catchUpAfter.js';
import { ConfigError, type ConfigProblem } from '../../../shared/config/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { configWith } from '../../support/configFixtures.js';

function problemsOf(json: unknown): ConfigProblem[] {
  try {
    parseConfig(json);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected the config to be refused');
}

// The example config's subscribers: 0 a webhook, 1 Slack, 2 e-mail.
const slackWith = (value: unknown) => configWith(['subscribers', 1, 'catchUpAfter'], value);

describe('parseCatchUpAfter', () => {
  it('reads minutes, hours and days from 1m to 7d', () => {
    expect(parseCatchUpAfter('15m')).toBe(900_000);
    expect(parseCatchUpAfter('2h')).toBe(7_200_000);
    expect(parseCatchUpAfter('1d')).toBe(86_400_000);
    expect(parseCatchUpAfter('7d')).toBe(7 * 86_400_000);
    for (const text of ['0m', '8d', '15', '15 m', '1.5h', '90s', 'm', '-5m', '015m']) {
      expect(parseCatchUpAfter(text)).toBeUndefined();
    }
  });
});

describe('catchUpAfter in the config', () => {
  it('is 15 minutes for a person who leaves it out, and nothing for a webhook', () => {
    const config = parseConfig(slackWith(undefined));
    const [webhook, slack, email] = config.subscribers;
    expect(slack && catchUpAfterMs(slack)).toBe(900_000);
    expect(email && catchUpAfterMs(email)).toBe(900_000);
    expect(webhook && catchUpAfterMs(webhook)).toBeUndefined();
  });

  it('takes a duration, or false to send every event however late', () => {
    const config = parseConfig(slackWith('2h'));
    expect(config.subscribers[1]).toMatchObject({ catchUpAfter: '2h' });
    expect(catchUpThresholds(config.subscribers)).toEqual([900_000, 7_200_000]);
    const off = parseConfig(slackWith(false));
    expect(off.subscribers[1] && catchUpAfterMs(off.subscribers[1])).toBeUndefined();
    expect(catchUpThresholds(off.subscribers)).toEqual([900_000]);
  });

  it('leaves out a disabled subscriber’s threshold', () => {
    const config = parseConfig(configWith(['subscribers', 2, 'enabled'], false));
    expect(catchUpThresholds(config.subscribers)).toEqual([900_000]);
  });

  it('names a bad duration at its JSON path, and refuses it on a webhook', () => {
    expect(problemsOf(slackWith('15 minutes'))).toEqual([
      {
        path: '$.subscribers[1].catchUpAfter',
        message:
          '"15 minutes" is not a duration from 1m to 7d; write minutes, hours or days, e.g. "15m", "2h", "1d", or false',
      },
    ]);
    expect(problemsOf(slackWith(true))[0]?.path).toBe('$.subscribers[1].catchUpAfter');
    // A machine gets every event: the key is not one of a webhook's.
    expect(problemsOf(configWith(['subscribers', 0, 'catchUpAfter'], '15m'))[0]?.message).toMatch(
      /^unknown key "catchUpAfter"/,
    );
  });

  it('is not a type a filter or a digest chooses', () => {
    expect(problemsOf(configWith(['subscribers', 1, 'filter'], { types: ['notifier.catch_up'] }))).toEqual([
      {
        path: '$.subscribers[1].filter.types[0]',
        message:
          '"notifier.catch_up" is not chosen by type: a Slack or e-mail subscriber gets catch-ups by its catchUpAfter',
      },
    ]);
    expect(
      problemsOf(configWith(['subscribers', 2, 'digest'], { every: '1h', types: ['notifier.catch_up'] }))[0]
        ?.path,
    ).toBe('$.subscribers[2].digest.types[0]');
  });
});
