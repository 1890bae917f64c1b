import { describe, expect, it } from 'vitest';
import { ConfigError, type ConfigProblem } from '../../../shared/config/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import type { EventType } from '../../../shared/events/notifierEvent.js';
import { configWith } from '../../support/configFixtures.js';
import { testUuid } from '../../support/orderFactory.js';

function problemsOf(json: unknown): ConfigProblem[] {
  try {
    parseConfig(json);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected the config to be refused');
}

function establishments(count: number): string[] {
  return Array.from({ length: count }, (_, index) => testUuid(index + 1, 'aaaa'));
}

/** Five types, prep summaries among them, so a statuses key counts one value more (see compileFilterPolicy). */
const FIVE_TYPES: EventType[] = [
  'order.created',
  'order.completed',
  'order.canceled',
  'order.rescheduled',
  'establishment.prep_summary',
];
const TWO_STATUSES = ['pending', 'canceled'];

describe('parseConfig on filters SNS cannot express', () => {
  it('refuses a filter over 150 value combinations at the filter’s path, with the reason', () => {
    const filter = { types: FIVE_TYPES, establishments: establishments(11), statuses: TWO_STATUSES };
    expect(problemsOf(configWith(['subscribers', 2, 'filter'], filter))).toEqual([
      {
        path: '$.subscribers[2].filter',
        message:
          'SNS cannot express this filter: filter has 165 value combinations; SNS allows 150 (types 5 × establishments 11 × statuses 2+1 for prep summaries and changes); split it across several subscribers',
      },
    ]);
  });

  it('accepts a filter of exactly 150 value combinations', () => {
    const filter = { types: FIVE_TYPES, establishments: establishments(10), statuses: TWO_STATUSES };
    const config = parseConfig(configWith(['subscribers', 0, 'filter'], filter));
    expect(config.subscribers[0]?.filter?.establishments).toHaveLength(10);
  });

  it('leaves an establishment repeated in another case to its own message', () => {
    // 151 entries written, 150 distinct: a duplicate to remove, not a 151st combination.
    const ids = establishments(150);
    const problems = problemsOf(
      configWith(['subscribers', 1, 'filter', 'establishments'], [...ids, ids[0]?.toUpperCase()]),
    );
    expect(problems).toEqual([
      {
        path: '$.subscribers[1].filter.establishments[150]',
        message: `"${ids[0]}" is listed twice`,
      },
    ]);
  });

  it('leaves an empty list to its own message', () => {
    expect(problemsOf(configWith(['subscribers', 0, 'filter', 'statuses'], []))).toEqual([
      {
        path: '$.subscribers[0].filter.statuses',
        message: 'list at least one status, or leave "statuses" out to match every one',
      },
    ]);
  });

  it('reports the refusal with the file’s other problems in one pass', () => {
    const json = configWith(['subscribers', 1, 'filter', 'establishments'], establishments(151));
    configWith(['organizations', 0, 'timeZone'], 'Europe/Lisbn', json);
    expect(problemsOf(json).map((problem) => problem.path)).toEqual([
      '$.organizations[0].timeZone',
      '$.subscribers[1].filter',
    ]);
  });
});
