import { describe, expect, it } from 'vitest';
import { DELIVERY_URL_RULE } from '../../../shared/config/deliveryUrl.js';
import { ConfigError, type ConfigProblem } from '../../../shared/config/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { DEFAULT_HIGHLIGHT_WORDS } from '../../../shared/events/noteHighlights.js';
import {
  configWith,
  configWithout,
  exampleConfig,
  minimalConfig,
  NORTH_CANTEEN_ID,
  NORTH_SCHOOL_ID,
} from '../../support/configFixtures.js';

function problemsOf(json: unknown): ConfigProblem[] {
  try {
    parseConfig(json);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  throw new Error('expected the config to be refused');
}

const ALL_STATUSES = ['pending', 'completed', 'canceled', 'archived'];

describe('parseConfig on valid configs', () => {
  it('accepts the example from the config contract and fills in every default', () => {
    expect(parseConfig(exampleConfig())).toEqual({
      api: { baseUrl: 'https://example.test/api/v1/admin', requestsPerMinute: 50 },
      organizations: [
        {
          id: NORTH_SCHOOL_ID,
          name: 'North School',
          token: { env: 'NORTH_TOKEN' },
          timeZone: 'Europe/Lisbon',
          window: { daysBack: 0, daysAhead: 7 },
          pollIntervalSeconds: 60,
          sweepIntervalSeconds: 300,
          cadence: 'auto',
          coldSweepMinutes: 15,
          emitExisting: false,
          highlightWords: [...DEFAULT_HIGHLIGHT_WORDS],
          statuses: ALL_STATUSES,
        },
      ],
      subscribers: [
        {
          id: 'automation',
          type: 'webhook',
          url: 'https://hooks.example.test/orders',
          secret: [{ env: 'HOOK_SECRET' }],
          filter: { types: ['order.created'] },
          includeContactDetails: false,
          enabled: true,
        },
        {
          id: 'kitchen-north',
          type: 'slack',
          webhookUrl: { env: 'SLACK_URL' },
          filter: { establishments: [NORTH_CANTEEN_ID] },
          includeContactDetails: false,
          enabled: true,
        },
        {
          id: 'office',
          type: 'email',
          to: ['office@example.org'],
          filter: { types: ['order.canceled'] },
          includeContactDetails: false,
          enabled: true,
        },
      ],
      smtp: { url: { env: 'SMTP_URL' }, from: 'Order alerts <alerts@example.org>' },
      state: { path: '.data/state.db' },
    });
  });

  it('defaults everything optional in a minimal config', () => {
    const config = parseConfig(minimalConfig());
    expect(config.api.requestsPerMinute).toBe(50);
    expect(config.organizations[0]).toEqual({
      id: NORTH_SCHOOL_ID,
      name: 'North School',
      token: { env: 'NORTH_TOKEN' },
      timeZone: 'Europe/Lisbon',
      window: { daysBack: 0, daysAhead: 7 },
      // The shortest gap between cycles, not the pace: the pace follows the budget.
      pollIntervalSeconds: 10,
      sweepIntervalSeconds: 300,
      cadence: 'auto',
      coldSweepMinutes: 15,
      emitExisting: false,
      highlightWords: [...DEFAULT_HIGHLIGHT_WORDS],
      statuses: ALL_STATUSES,
    });
    expect(config.subscribers).toEqual([]);
    expect(config.smtp).toBeUndefined();
    expect(config.state).toEqual({ path: '.data/state.db' });
  });

  it('fills the missing half of a partly written window', () => {
    const config = parseConfig(configWith(['organizations', 0, 'window'], { daysBack: 2 }, minimalConfig()));
    expect(config.organizations[0]?.window).toEqual({ daysBack: 2, daysAhead: 7 });
  });

  it('gives each parse its own default status list', () => {
    const first = parseConfig(minimalConfig());
    first.organizations[0]?.statuses.pop();
    expect(parseConfig(minimalConfig()).organizations[0]?.statuses).toEqual(ALL_STATUSES);
  });

  it('keeps explicit values over the defaults', () => {
    const json = configWith(['organizations', 0, 'statuses'], ['pending', 'canceled'], minimalConfig());
    configWith(['organizations', 0, 'establishments'], [NORTH_CANTEEN_ID], json);
    configWith(['organizations', 0, 'emitExisting'], true, json);
    configWith(['organizations', 0, 'pollIntervalSeconds'], 2, json);
    configWith(['organizations', 0, 'sweepIntervalSeconds'], 3_600, json);
    configWith(['api', 'requestsPerMinute'], 20, json);
    const config = parseConfig(json);
    expect(config.organizations[0]).toMatchObject({
      statuses: ['pending', 'canceled'],
      establishments: [NORTH_CANTEEN_ID],
      emitExisting: true,
      pollIntervalSeconds: 2,
      sweepIntervalSeconds: 3_600,
    });
    expect(config.api.requestsPerMinute).toBe(20);
  });

  it("keeps an organization's own highlight words, or none, over the defaults", () => {
    const own = configWith(['organizations', 0, 'highlightWords'], ['glúten', 'alergia'], minimalConfig());
    expect(parseConfig(own).organizations[0]?.highlightWords).toEqual(['glúten', 'alergia']);
    const none = configWith(['organizations', 0, 'highlightWords'], [], minimalConfig());
    expect(parseConfig(none).organizations[0]?.highlightWords).toEqual([]);
  });

  it('gives each parse its own default highlight words', () => {
    parseConfig(minimalConfig()).organizations[0]?.highlightWords.pop();
    expect(parseConfig(minimalConfig()).organizations[0]?.highlightWords).toEqual(DEFAULT_HIGHLIGHT_WORDS);
  });

  it('keeps several webhook secrets in order, for rotation', () => {
    const config = parseConfig(
      configWith(['subscribers', 0, 'secret'], [{ env: 'NEW_SECRET' }, { env: 'OLD_SECRET' }]),
    );
    expect(config.subscribers[0]).toMatchObject({ secret: [{ env: 'NEW_SECRET' }, { env: 'OLD_SECRET' }] });
  });

  it('lower-cases uuids so that filters compare them exactly', () => {
    const json = configWith(['organizations', 0, 'id'], NORTH_SCHOOL_ID.toUpperCase());
    configWith(['subscribers', 1, 'filter', 'establishments'], [NORTH_CANTEEN_ID.toUpperCase()], json);
    const config = parseConfig(json);
    expect(config.organizations[0]?.id).toBe(NORTH_SCHOOL_ID);
    expect(config.subscribers[1]?.filter?.establishments).toEqual([NORTH_CANTEEN_ID]);
  });

  it('drops a trailing slash from the base URL', () => {
    const config = parseConfig(configWith(['api', 'baseUrl'], 'http://127.0.0.1:8080/api/v1/admin/'));
    expect(config.api.baseUrl).toBe('http://127.0.0.1:8080/api/v1/admin');
  });

  it('accepts a filter over every key at once', () => {
    const filter = {
      types: ['order.created', 'order.canceled'],
      establishments: [NORTH_CANTEEN_ID],
      statuses: ['pending'],
      paymentMethods: ['card', 'credit'],
    };
    const config = parseConfig(configWith(['subscribers', 0, 'filter'], filter));
    expect(config.subscribers[0]?.filter).toEqual(filter);
  });

  it('does not ask for SMTP when nobody is e-mailed', () => {
    const json = configWithout(['smtp']);
    configWithout(['subscribers', 2], json);
    expect(parseConfig(json).smtp).toBeUndefined();
  });
});

describe('parseConfig on mistakes, each named by its JSON path', () => {
  it.each([
    {
      mistake: 'an organization id that is not a uuid',
      json: () => configWith(['organizations', 0, 'id'], 'north-school'),
      problem: { path: '$.organizations[0].id', message: '"north-school" is not a uuid' },
    },
    {
      mistake: 'a misspelt time zone',
      json: () => configWith(['organizations', 0, 'timeZone'], 'Europe/Lisbn'),
      problem: {
        path: '$.organizations[0].timeZone',
        message: '"Europe/Lisbn" is not an IANA time zone (did you mean "Europe/Lisbon"?)',
      },
    },
    {
      mistake: 'a missing time zone',
      json: () => configWithout(['organizations', 0, 'timeZone']),
      problem: {
        path: '$.organizations[0].timeZone',
        message: 'required: the IANA time zone "today" is counted in, e.g. "Europe/Lisbon"',
      },
    },
    {
      mistake: 'a negative window',
      json: () => configWith(['organizations', 0, 'window', 'daysBack'], -1),
      problem: {
        path: '$.organizations[0].window.daysBack',
        message: 'must be a whole number from 0 to 31, got -1',
      },
    },
    {
      mistake: 'a window too far ahead',
      json: () => configWith(['organizations', 0, 'window', 'daysAhead'], 63),
      problem: {
        path: '$.organizations[0].window.daysAhead',
        message: 'must be a whole number from 0 to 62, got 63',
      },
    },
    {
      mistake: 'a fractional poll interval',
      json: () => configWith(['organizations', 0, 'pollIntervalSeconds'], 7.5),
      problem: {
        path: '$.organizations[0].pollIntervalSeconds',
        message: 'must be a whole number from 2 to 86400, got 7.5',
      },
    },
    {
      mistake: 'a poll interval under 2 s',
      json: () => configWith(['organizations', 0, 'pollIntervalSeconds'], 1),
      problem: {
        path: '$.organizations[0].pollIntervalSeconds',
        message: 'must be a whole number from 2 to 86400, got 1',
      },
    },
    {
      mistake: 'a sweep interval under a minute',
      json: () => configWith(['organizations', 0, 'sweepIntervalSeconds'], 59),
      problem: {
        path: '$.organizations[0].sweepIntervalSeconds',
        message: 'must be a whole number from 60 to 86400, got 59',
      },
    },
    {
      mistake: 'a cadence that is not one',
      json: () => configWith(['organizations', 0, 'cadence'], 'fixd'),
      problem: {
        path: '$.organizations[0].cadence',
        message: '"fixd" is not a cadence (did you mean "fixed"?); expected one of auto, fixed',
      },
    },
    {
      mistake: 'a highlight word with no letter or digit',
      json: () => configWith(['organizations', 0, 'highlightWords'], ['nut', '--']),
      problem: {
        path: '$.organizations[0].highlightWords[1]',
        message: '"--" has no letter or digit, so it would match no note',
      },
    },
    {
      mistake: 'a highlight word listed twice, in another case and accent',
      json: () => configWith(['organizations', 0, 'highlightWords'], ['Gluten', 'nut', 'glúten']),
      problem: {
        path: '$.organizations[0].highlightWords[2]',
        message: '"glúten" is listed twice',
      },
    },
    {
      mistake: 'a cold sweep of no minutes',
      json: () => configWith(['organizations', 0, 'coldSweepMinutes'], 0),
      problem: {
        path: '$.organizations[0].coldSweepMinutes',
        message: 'must be a whole number from 1 to 1440, got 0',
      },
    },
    {
      mistake: 'a sweep interval over a day',
      json: () => configWith(['organizations', 0, 'sweepIntervalSeconds'], 86_401),
      problem: {
        path: '$.organizations[0].sweepIntervalSeconds',
        message: 'must be a whole number from 60 to 86400, got 86401',
      },
    },
    {
      mistake: 'a request rate written as a string',
      json: () => configWith(['api', 'requestsPerMinute'], '50'),
      problem: {
        path: '$.api.requestsPerMinute',
        message: 'must be a whole number from 1 to 1000, got "50"',
      },
    },
    {
      mistake: 'a misspelt key',
      json: () => configWith(['organizations', 0, 'pollIntervalSecond'], 30),
      problem: {
        path: '$.organizations[0]',
        message: 'unknown key "pollIntervalSecond" (did you mean "pollIntervalSeconds"?)',
        place: '$.organizations[0].pollIntervalSecond',
      },
    },
    {
      mistake: 'an unknown key with no near match',
      json: () => configWith(['logging'], { level: 'debug' }),
      problem: {
        path: '$',
        message: 'unknown key "logging"; known keys: api, organizations, subscribers, smtp, state, $schema',
        place: '$.logging',
      },
    },
    {
      mistake: 'no organizations',
      json: () => configWith(['organizations'], []),
      problem: { path: '$.organizations', message: 'list at least one organization to poll' },
    },
    {
      mistake: 'a watched status that does not exist',
      json: () => configWith(['organizations', 0, 'statuses'], ['pending', 'cancelled']),
      problem: {
        path: '$.organizations[0].statuses[1]',
        message:
          '"cancelled" is not an order status (did you mean "canceled"?); expected one of pending, completed, canceled, archived',
      },
    },
    {
      mistake: 'an empty establishment list',
      json: () => configWith(['organizations', 0, 'establishments'], []),
      problem: {
        path: '$.organizations[0].establishments',
        message: 'list at least one establishment, or leave "establishments" out to poll them all',
      },
    },
    {
      mistake: 'a blank organization name',
      json: () => configWith(['organizations', 0, 'name'], '  '),
      problem: { path: '$.organizations[0].name', message: 'must not be empty' },
    },
    {
      mistake: 'a missing organization name',
      json: () => configWithout(['organizations', 0, 'name']),
      problem: { path: '$.organizations[0].name', message: 'required' },
    },
    {
      mistake: 'an organization given as a string',
      json: () => configWith(['organizations', 0], NORTH_SCHOOL_ID),
      problem: { path: '$.organizations[0]', message: 'expected an object, got a string' },
    },
    {
      mistake: 'an e-mail subscriber without SMTP settings',
      json: () => configWithout(['smtp']),
      problem: {
        path: '$.smtp',
        message: 'required: subscriber "office" sends e-mail, which needs an SMTP server',
      },
    },
    {
      mistake: 'a filter naming an event type that does not exist',
      json: () => configWith(['subscribers', 0, 'filter', 'types'], ['order.create']),
      problem: {
        path: '$.subscribers[0].filter.types[0]',
        message:
          '"order.create" is not an event type (did you mean "order.created"?); expected one of order.created, order.completed, order.canceled, order.archived, order.status_changed, order.rescheduled, order.updated, establishment.prep_summary, establishment.prep_changed',
      },
    },
    {
      mistake: 'a filter naming a payment method that does not exist',
      json: () => configWith(['subscribers', 0, 'filter', 'paymentMethods'], ['cash', 'paypal']),
      problem: {
        path: '$.subscribers[0].filter.paymentMethods[1]',
        message: '"paypal" is not a payment method; expected one of cash, card, credit',
      },
    },
    {
      mistake: 'a filter with an unknown key',
      json: () => configWith(['subscribers', 0, 'filter', 'type'], ['order.created']),
      problem: {
        path: '$.subscribers[0].filter',
        message: 'unknown key "type" (did you mean "types"?)',
        place: '$.subscribers[0].filter.type',
      },
    },
    {
      mistake: 'an empty filter list',
      json: () => configWith(['subscribers', 0, 'filter', 'types'], []),
      problem: {
        path: '$.subscribers[0].filter.types',
        message: 'list at least one event type, or leave "types" out to match every type',
      },
    },
    {
      mistake: 'a filter establishment that is not a uuid',
      json: () => configWith(['subscribers', 1, 'filter', 'establishments'], ['canteen-2']),
      problem: { path: '$.subscribers[1].filter.establishments[0]', message: '"canteen-2" is not a uuid' },
    },
    {
      mistake: 'the same value listed twice',
      json: () => configWith(['subscribers', 0, 'filter', 'types'], ['order.created', 'order.created']),
      problem: { path: '$.subscribers[0].filter.types[1]', message: '"order.created" is listed twice' },
    },
    {
      mistake: 'a malformed e-mail address',
      json: () => configWith(['subscribers', 2, 'to'], ['office@example.org', 'office@']),
      problem: { path: '$.subscribers[2].to[1]', message: '"office@" is not an e-mail address' },
    },
    {
      mistake: 'an e-mail subscriber without recipients',
      json: () => configWith(['subscribers', 2, 'to'], []),
      problem: { path: '$.subscribers[2].to', message: 'list at least one recipient' },
    },
    {
      mistake: 'a webhook URL that is not http(s)',
      json: () => configWith(['subscribers', 0, 'url'], 'ftp://hooks.example.test/orders'),
      problem: { path: '$.subscribers[0].url', message: `must be ${DELIVERY_URL_RULE}` },
    },
    {
      mistake: 'a webhook URL in plain http:// beyond loopback',
      json: () => configWith(['subscribers', 0, 'url'], 'http://hooks.example.test/orders'),
      problem: { path: '$.subscribers[0].url', message: `must be ${DELIVERY_URL_RULE}` },
    },
    {
      mistake: 'a subscriber id with capitals and spaces',
      json: () => configWith(['subscribers', 0, 'id'], 'Kitchen North'),
      problem: {
        path: '$.subscribers[0].id',
        message:
          '"Kitchen North" is not a valid subscriber id: use up to 64 lowercase letters, digits, "-" and "_", starting with a letter or digit',
      },
    },
    {
      mistake: 'a duplicate subscriber id',
      json: () => configWith(['subscribers', 1, 'id'], 'automation'),
      problem: { path: '$.subscribers[1].id', message: 'duplicate subscriber id "automation"' },
    },
    {
      mistake: 'an unknown subscriber type',
      json: () => configWith(['subscribers', 1, 'type'], 'slak'),
      problem: {
        path: '$.subscribers[1].type',
        message:
          '"slak" is not a subscriber type (did you mean "slack"?); expected one of webhook, slack, email',
      },
    },
    {
      mistake: 'a subscriber without a type',
      json: () => configWithout(['subscribers', 1, 'type']),
      problem: {
        path: '$.subscribers[1].type',
        message: 'required: the subscriber type, expected one of webhook, slack, email',
      },
    },
    {
      mistake: 'a key that belongs to another subscriber type',
      json: () => configWith(['subscribers', 1, 'url'], 'https://hooks.example.test/x'),
      problem: {
        path: '$.subscribers[1]',
        message: expect.stringMatching(/^unknown key "url"/),
        place: '$.subscribers[1].url',
      },
    },
    {
      mistake: 'a base URL without the Admin API path',
      json: () => configWith(['api', 'baseUrl'], 'https://example.test'),
      problem: {
        path: '$.api.baseUrl',
        message:
          'must end in /api/v1/admin, the Admin API\'s base path (did you mean "https://example.test/api/v1/admin"?)',
      },
    },
    {
      mistake: 'a base URL that goes past the Admin API path',
      json: () => configWith(['api', 'baseUrl'], 'https://example.test/meals/api/v1/admin/orders'),
      problem: {
        path: '$.api.baseUrl',
        message:
          'must end in /api/v1/admin, the Admin API\'s base path (did you mean "https://example.test/meals/api/v1/admin"?)',
      },
    },
    {
      mistake: 'a base URL that is not a URL',
      json: () => configWith(['api', 'baseUrl'], 'example.test/api/v1/admin'),
      problem: {
        path: '$.api.baseUrl',
        message: 'must be an http:// or https:// URL, e.g. "https://example.test/api/v1/admin"',
      },
    },
    {
      mistake: 'a base URL with credentials in it',
      json: () => configWith(['api', 'baseUrl'], 'https://admin:pw@example.test/api/v1/admin'),
      problem: {
        path: '$.api.baseUrl',
        message: 'must not carry credentials; tokens go in organizations[].token',
      },
    },
  ])('refuses $mistake', ({ json, problem }) => {
    expect(problemsOf(json())).toEqual([problem]);
  });

  it('refuses duplicate organization ids, even in another letter case', () => {
    const json = exampleConfig();
    const annex = { name: 'North annex', token: { env: 'ANNEX_TOKEN' }, timeZone: 'Europe/Lisbon' };
    json.organizations.push({ ...annex, id: NORTH_SCHOOL_ID.toUpperCase() });
    expect(problemsOf(json)).toEqual([
      { path: '$.organizations[1].id', message: `duplicate organization id "${NORTH_SCHOOL_ID}"` },
    ]);
  });

  it('refuses two organizations with the same name', () => {
    const json = exampleConfig();
    json.organizations.push({
      id: NORTH_CANTEEN_ID,
      name: 'North School',
      token: { env: 'X' },
      timeZone: 'UTC',
    });
    expect(problemsOf(json)).toEqual([
      { path: '$.organizations[1].name', message: 'duplicate organization name "North School"' },
    ]);
  });

  it('reports every problem of the file in one pass', () => {
    const json = configWith(['organizations', 0, 'timeZone'], 'Europe/Lisbn');
    configWith(['organizations', 0, 'token'], 42, json);
    configWith(['subscribers', 2, 'id'], 'automation', json);
    configWith(['subscribers', 0, 'filter', 'paymentMethods'], ['bitcoin'], json);
    configWith(['state', 'file'], 'x.db', json);
    configWithout(['smtp'], json);
    const problems = problemsOf(json);
    expect(problems.map((problem) => problem.path).sort()).toEqual([
      '$.organizations[0].timeZone',
      '$.organizations[0].token',
      '$.smtp',
      '$.state',
      '$.subscribers[0].filter.paymentMethods[0]',
      '$.subscribers[2].id',
    ]);
  });

  it('still checks for duplicates when a subscriber is malformed', () => {
    const json = configWith(['subscribers', 1, 'id'], 'automation');
    configWith(['subscribers', 1, 'webhookUrl'], 'https://hooks.slack.test/T0/B0/x', json);
    // In the file's order: the subscriber's id is written before its webhookUrl.
    expect(problemsOf(json).map((problem) => problem.path)).toEqual([
      '$.subscribers[1].id',
      '$.subscribers[1].webhookUrl',
    ]);
  });

  it('refuses a document that is not an object', () => {
    expect(problemsOf([exampleConfig()])).toEqual([{ path: '$', message: 'expected an object, got a list' }]);
  });
});

describe('an e-mail subscriber digest', () => {
  const digestAt = (digest: unknown) => configWith(['subscribers', 2, 'digest'], digest);

  it('accepts an hourly and a daily digest', () => {
    const hourly = parseConfig(digestAt({ every: '1h', types: ['order.created'] }));
    expect(hourly.subscribers[2]).toMatchObject({ digest: { every: '1h', types: ['order.created'] } });
    const daily = parseConfig(digestAt({ every: '1d', at: '17:30', types: ['order.created'] }));
    expect(daily.subscribers[2]).toMatchObject({ digest: { every: '1d', at: '17:30' } });
  });

  it('requires "at" for a daily digest and refuses it for an hourly one, at its JSON path', () => {
    expect(problemsOf(digestAt({ every: '1d', types: ['order.created'] }))).toEqual([
      {
        path: '$.subscribers[2].digest.at',
        message: 'required for a daily digest: the time of day its period ends, e.g. "17:30"',
      },
    ]);
    expect(problemsOf(digestAt({ every: '1h', at: '17:30', types: ['order.created'] }))).toEqual([
      {
        path: '$.subscribers[2].digest.at',
        message: 'an hourly digest ends on each hour; remove "at", or use "every": "1d"',
      },
    ]);
  });

  it('names a bad period, time or type', () => {
    const problems = problemsOf(digestAt({ every: '2h', at: '25:00', types: ['order.creatd'] }));
    expect(problems.map((problem) => problem.path)).toEqual([
      '$.subscribers[2].digest.every',
      '$.subscribers[2].digest.at',
      '$.subscribers[2].digest.types[0]',
    ]);
    expect(problems[2]?.message).toContain('did you mean "order.created"?');
  });
});
