// The config file's contract (issue 3, "Config contract"): strict zod schemas with defaults and the
// cross-field rules, and the types every other module reads the config through.
import * as z from 'zod';
import { ORDER_STATUSES, PAYMENT_METHODS } from '../api/schemas.js';
import { checkFilterExpressible } from '../contracts/snsFilterPolicy.js';
import { CATCH_UP_EVENT_TYPE } from '../events/catchUpEvent.js';
import { DEFAULT_HIGHLIGHT_WORDS, matchWords } from '../events/noteHighlights.js';
import { EVENT_TYPES, type EventType } from '../events/notifierEvent.js';
import { isValidTimeZone } from '../time/calendarDate.js';
import { parseCatchUpAfter } from './catchUpAfter.js';
import { closestMatch } from './closestMatch.js';
import { quoted } from './describeValue.js';
import { type SecretRef, SecretRefSchema } from './secretRef.js';
import { strictObject } from './strictObject.js';

/** The Admin API's base path; every endpoint in the spec is relative to it. */
export const ADMIN_API_PATH = '/api/v1/admin';
export const SUBSCRIBER_TYPES = ['webhook', 'slack', 'email'] as const;
/** How an organization's cycles are spaced: by its establishments' schedule, or evenly every day. */
export const CADENCES = ['auto', 'fixed'] as const;

type Issue = z.core.$ZodRawIssue;

// Cross-field rules must run even when some field elsewhere is malformed, so that one pass reports every
// problem; zod skips refinements after a type error unless told otherwise. Their input is then only
// partly parsed, which is why they read it defensively.
const ALWAYS = { when: () => true };

function didYouMean(written: unknown, candidates: Iterable<string>): string {
  const suggestion = typeof written === 'string' ? closestMatch(written, candidates) : undefined;
  return suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
}

function wholeNumber(min: number, max: number) {
  // A missing value is left to the caller's error map ("required").
  const error = (issue: Issue) =>
    issue.input === undefined
      ? undefined
      : `must be a whole number from ${min} to ${max}, got ${quoted(issue.input)}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** One of a fixed set of words; the message names the allowed ones and the nearest to what was written. */
function oneOf<const Values extends readonly [string, ...string[]]>(values: Values, noun: string) {
  return z.enum(values, {
    error: (issue) =>
      issue.code !== 'invalid_value' || issue.input === undefined
        ? undefined
        : `${quoted(issue.input)} is not ${noun}${didYouMean(issue.input, values)}; expected one of ${values.join(', ')}`,
  });
}

/** A list that must say something (an empty one is almost always a mistake) and say it once. */
function listOf<Item extends z.ZodType>(item: Item, emptyMessage: string) {
  return z
    .array(item)
    .min(1, { error: emptyMessage })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((entry, index) => {
        if (typeof entry !== 'string') return;
        if (seen.has(entry))
          ctx.addIssue({ code: 'custom', path: [index], message: `${quoted(entry)} is listed twice` });
        seen.add(entry);
      });
    });
}

// Lower-cased so that filters and SNS filter policies compare uuids with plain string equality.
const Uuid = z
  .guid({
    error: (issue) => (issue.code === 'invalid_format' ? `${quoted(issue.input)} is not a uuid` : undefined),
  })
  .transform((uuid) => uuid.toLowerCase());

const NonEmptyText = z.string().trim().min(1, { error: 'must not be empty' });

function parseHttpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

// URLs are never quoted back: a webhook URL may carry a token in its query.
const HttpUrl = z.string().refine((text) => parseHttpUrl(text) !== undefined, {
  error: 'must be an http:// or https:// URL',
});

const BaseUrl = z
  .string()
  .superRefine((text, ctx) => {
    const url = parseHttpUrl(text);
    const example = 'e.g. "https://example.test/api/v1/admin"';
    if (!url) {
      ctx.addIssue({ code: 'custom', message: `must be an http:// or https:// URL, ${example}` });
    } else if (url.username || url.password) {
      ctx.addIssue({
        code: 'custom',
        message: 'must not carry credentials; tokens go in organizations[].token',
      });
    } else if (url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `must not have a query or fragment, ${example}` });
    } else if (!url.pathname.replace(/\/+$/, '').endsWith(ADMIN_API_PATH)) {
      const at = url.pathname.indexOf(ADMIN_API_PATH);
      const suggestion = `${url.origin}${at >= 0 ? url.pathname.slice(0, at) : ''}${ADMIN_API_PATH}`;
      ctx.addIssue({
        code: 'custom',
        message: `must end in ${ADMIN_API_PATH}, the Admin API's base path (did you mean "${suggestion}"?)`,
      });
    }
  })
  // Endpoint paths are appended to it, so one canonical form without a trailing slash.
  .transform((text) => text.replace(/\/+$/, ''));

let knownTimeZones: readonly string[] | undefined;
function timeZoneNames(): readonly string[] {
  knownTimeZones ??= [...Intl.supportedValuesOf('timeZone'), 'UTC'];
  return knownTimeZones;
}

const TimeZone = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'required: the IANA time zone "today" is counted in, e.g. "Europe/Lisbon"'
        : undefined,
  })
  .refine(isValidTimeZone, {
    error: (issue) =>
      `${quoted(issue.input)} is not an IANA time zone${didYouMean(issue.input, timeZoneNames())}`,
  });

const OrderStatus = oneOf(ORDER_STATUSES, 'an order status');

export const ApiConfigSchema = strictObject({
  baseUrl: BaseUrl.describe('The Admin API base URL, ending in /api/v1/admin.'),
  // The spec's documented limit; its scope is unknown, so the budget is per token.
  requestsPerMinute: wholeNumber(1, 1000)
    .default(50)
    .describe('Request budget per token (1-1000). Organizations sharing a token share it.'),
}).describe('The Admin API the organizations are read from.');
export type ApiConfig = z.infer<typeof ApiConfigSchema>;

export const PollWindowSchema = strictObject({
  daysBack: wholeNumber(0, 31).default(0).describe('Pickup dates watched before today (0-31).'),
  daysAhead: wholeNumber(0, 62).default(7).describe('Pickup dates watched after today (0-62).'),
});
export type PollWindow = z.infer<typeof PollWindowSchema>;

// A word that is nothing but punctuation would match nothing; one written twice is a slip.
const HighlightWords = z
  .array(
    z.string().refine((word) => matchWords(word).length > 0, {
      error: (issue) => `${quoted(issue.input)} has no letter or digit, so it would match no note`,
    }),
  )
  .superRefine((words, ctx) => {
    const seen = new Set<string>();
    words.forEach((word, index) => {
      const key = matchWords(word).join(' ');
      if (key !== '' && seen.has(key))
        ctx.addIssue({ code: 'custom', path: [index], message: `${quoted(word)} is listed twice` });
      seen.add(key);
    });
  });

export const OrganizationConfigSchema = strictObject({
  id: Uuid.describe('Organization uuid, sent as X-SERVICE-ORGANIZATION.'),
  name: NonEmptyText.describe('Shown in messages and events.'),
  token: SecretRefSchema.describe(
    'The API token, as { "env": "NAME" }: the environment variable holding it (on AWS, the secret <prefix>NAME).',
  ),
  // Required, not defaulted: the API's own "today" is in an unknown zone, and a wrong guess shifts the
  // window by a day around midnight.
  timeZone: TimeZone.meta({
    description: 'IANA time zone that defines "today" for the pickup-date window.',
    examples: ['Europe/Lisbon'],
  }),
  // prefault, not default: zod 4 returns a default as-is, while a prefault is parsed, filling the inner
  // defaults.
  window: PollWindowSchema.prefault({}).describe('Pickup dates watched, around today.'),
  // The shortest gap between cycles, not the pace: the pace follows the token's budget (each cycle's cost
  // and the organization's share of the token), so a user with a 50/min token never has to tune it. The
  // floor is low enough for the demo and tests to watch orders move within seconds.
  pollIntervalSeconds: wholeNumber(2, 86_400)
    .default(10)
    .describe(
      'The shortest gap between two cycles, in seconds (2-86400); locally the pace follows the token budget. Default 10 (on AWS 60, or 15 for an organization whose pending orders fit in two pages).',
    ),
  // How long one full sweep of the terminal listings should take: it bounds how late an order that never
  // passed through pending, or a completed or canceled one being archived, is seen.
  sweepIntervalSeconds: wholeNumber(60, 86_400)
    .default(300)
    .describe(
      'How long one full sweep of the completed, canceled and archived listings should take, in seconds (60-86400).',
    ),
  // Auto by default: until the establishments' schedule is known it behaves as fixed, so nothing changes
  // for an organization whose establishments could not be read.
  cadence: oneOf(CADENCES, 'a cadence')
    .default('auto')
    .describe(
      '"auto" follows the establishments: the fastest pace the budget allows 30 minutes either side of a closing time, pollIntervalSeconds otherwise on working days, one cycle every coldSweepMinutes on days no establishment works. "fixed" keeps pollIntervalSeconds every day.',
    ),
  coldSweepMinutes: wholeNumber(1, 1440)
    .default(15)
    .describe(
      'With cadence "auto", the gap between cycles (the sweep included) on days no establishment works, in minutes (1-1440).',
    ),
  emitExisting: z
    .boolean()
    .default(false)
    .describe('true announces the orders found on the first cycle instead of recording them silently.'),
  statuses: listOf(OrderStatus, 'list at least one status to watch, or leave "statuses" out to watch all')
    .default(() => [...ORDER_STATUSES])
    .describe('Statuses whose transitions are announced; default all four.'),
  establishments: listOf(
    Uuid,
    'list at least one establishment, or leave "establishments" out to poll them all',
  )
    .optional()
    .describe('Poll only these establishment uuids; default all.'),
  highlightWords: HighlightWords.default(() => [...DEFAULT_HIGHLIGHT_WORDS]).meta({
    description:
      'Words that flag a note (order or item) as an allergy or diet: flagged notes come first, marked 🚨 in Slack and ALLERGY/DIET in e-mail and the prep summary. Case and accents are ignored and a word matches the start of a word ("nut": "nuts", "Nut-free"; not "peanut"). Default: common allergens and diets in English; [] flags nothing.',
    examples: [['allergy', 'allergic', 'nut', 'gluten', 'lactose', 'vegan', 'halal']],
  }),
});
export type OrganizationConfig = z.infer<typeof OrganizationConfigSchema>;

/**
 * The types a filter or a digest names: every event type but the catch-up, which a Slack or e-mail
 * subscriber gets by its `catchUpAfter`, whatever types it takes.
 */
const CHOSEN_TYPES = EVENT_TYPES.filter((type) => type !== CATCH_UP_EVENT_TYPE) as [
  EventType,
  ...EventType[],
];

function chosenType() {
  return z.string().superRefine((written, ctx) => {
    if ((CHOSEN_TYPES as readonly string[]).includes(written)) return;
    ctx.addIssue({
      code: 'custom',
      message:
        written === CATCH_UP_EVENT_TYPE
          ? `${quoted(written)} is not chosen by type: a Slack or e-mail subscriber gets catch-ups by its catchUpAfter`
          : `${quoted(written)} is not an event type${didYouMean(written, CHOSEN_TYPES)}; expected one of ${CHOSEN_TYPES.join(', ')}`,
    });
  }) as unknown as z.ZodType<EventType, string>;
}

/** AND across keys, OR within a list; a missing key matches everything. */
export const SubscriberFilterSchema = strictObject({
  types: listOf(
    chosenType(),
    'list at least one event type, or leave "types" out to match every type',
  ).optional(),
  establishments: listOf(
    Uuid,
    'list at least one establishment, or leave "establishments" out to match every one',
  ).optional(),
  statuses: listOf(
    OrderStatus,
    'list at least one status, or leave "statuses" out to match every one',
  ).optional(),
  paymentMethods: listOf(
    oneOf(PAYMENT_METHODS, 'a payment method'),
    'list at least one payment method, or leave "paymentMethods" out to match every one',
  ).optional(),
}).superRefine(
  (filter, ctx) => {
    // On AWS each filter becomes an SNS subscription filter policy; one SNS would refuse at deploy time
    // is refused here, where the author can still split it.
    const reason = checkFilterExpressible(filter);
    if (reason !== undefined)
      ctx.addIssue({
        code: 'custom',
        message: `SNS cannot express this filter: ${reason}; split it across several subscribers`,
      });
  },
  // Only an otherwise valid filter is worth counting; an empty or repeated entry has its own message.
  { when: (payload) => payload.issues.length === 0 },
);
export type SubscriberFilter = z.infer<typeof SubscriberFilterSchema>;

// It names queues and secrets later, hence the narrow alphabet.
const SUBSCRIBER_ID = /^[a-z0-9][a-z0-9-_]{0,63}$/;
const SubscriberId = z.string().regex(SUBSCRIBER_ID, {
  error: (issue) =>
    `${quoted(issue.input)} is not a valid subscriber id: use up to 64 lowercase letters, digits, "-" and "_", starting with a letter or digit`,
});

const subscriberBase = {
  id: SubscriberId.describe('Lower-case slug naming the subscriber (up to 64 of a-z, 0-9, "-", "_").'),
  filter: SubscriberFilterSchema.optional().describe(
    'Which events it gets: AND across keys, OR within a list; a missing key matches everything.',
  ),
  // Parent e-mail and phone leave the system only for subscribers that ask for them.
  includeContactDetails: z
    .boolean()
    .default(false)
    .describe("true includes the parent's e-mail and phone in what it receives."),
  enabled: z.boolean().default(true).describe('false keeps it in the config without delivering to it.'),
};

export const WebhookSubscriberSchema = strictObject({
  type: z.literal('webhook'),
  ...subscriberBase,
  url: HttpUrl.describe('Where the signed POST goes.'),
  // Several secrets sign at once during a rotation; always a list once parsed.
  secret: z
    .union([SecretRefSchema, listOf(SecretRefSchema, 'list at least one secret')])
    .transform((secret) => (Array.isArray(secret) ? secret : [secret]))
    .describe(
      'The Standard Webhooks signing secret (whsec_…), as { "env": "NAME" }; a list of them signs with each during a rotation.',
    ),
}).describe('Signed HTTP POSTs (Standard Webhooks).');
export type WebhookSubscriber = z.infer<typeof WebhookSubscriberSchema>;

/**
 * How stale an order event may be before a person gets a catch-up instead: a duration ("15m", "2h",
 * "1d"), or false to get every event however late. See catchUpAfterMs.
 */
const CatchUpAfter = z
  .union(
    [
      z.literal(false),
      z.string().refine((text) => parseCatchUpAfter(text) !== undefined, {
        error: (issue) =>
          `${quoted(issue.input)} is not a duration from 1m to 7d; write minutes, hours or days, e.g. "15m", "2h", "1d", or false`,
      }),
    ],
    {
      error: (issue) =>
        issue.input === undefined || issue.code !== 'invalid_union'
          ? undefined
          : `${quoted(issue.input)} is not a duration; write e.g. "15m", "2h", "1d", or false to turn catch-ups off`,
    },
  )
  // Optional rather than defaulted, so that a subscriber built in code need not name it: catchUpAfterMs
  // reads a missing one as DEFAULT_CATCH_UP_AFTER.
  .optional()
  .describe(
    'An order event whose change happened longer than this before it could be delivered (the notifier was stopped, the API or Slack/SMTP was down) is folded into one catch-up message instead of being sent late: "15m", "2h", "1d" (1m to 7d), or false to send every event however late. Default "15m".',
  );

/** The human subscribers' fields: who reads them can be buried by a backlog, so they get catch-ups. */
const humanBase = { ...subscriberBase, catchUpAfter: CatchUpAfter };

/** Slack's Web API, where a Slack app subscriber's calls go unless its `apiUrl` says otherwise. */
export const DEFAULT_SLACK_API_URL = 'https://slack.com/api';

/**
 * Whether a URL the notifier sends a credential to may be used: https, or http only to this machine
 * (127.0.0.0/8, ::1, localhost), where tests and the simulator serve stand-ins. @returns the problem, if any
 */
export function credentialUrlProblem(text: string): string | undefined {
  const url = parseHttpUrl(text);
  if (!url) return 'must be an https:// URL, e.g. "https://slack.com/api"';
  if (url.username || url.password) return 'must not carry credentials; the token goes in botToken';
  if (url.search || url.hash) return 'must not have a query or fragment, e.g. "https://slack.com/api"';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'must be https:// (http:// only to this machine: 127.0.0.1, [::1], localhost), since the bot token goes with every call';
  return undefined;
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

const SlackApiUrl = z
  .string()
  .superRefine((text, ctx) => {
    const problem = credentialUrlProblem(text);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  // Method names are appended to it ("/chat.postMessage"), so one canonical form without a trailing slash.
  .transform((text) => text.replace(/\/+$/, ''));

// A conversation id: chat.postMessage takes names too, but conversations.info and the stored ts need the id.
const SLACK_CHANNEL_ID = /^[A-Z][A-Z0-9]{7,}$/;
const SlackChannel = z.string().regex(SLACK_CHANNEL_ID, {
  error: (issue) =>
    `${quoted(issue.input)} is not a Slack channel id: write the id, e.g. "C0123ABCD" (in Slack, the channel's details show it at the bottom)`,
});

export const SlackSubscriberSchema = strictObject({
  type: z.literal('slack'),
  ...humanBase,
  // The incoming-webhook URL is itself the credential.
  webhookUrl: SecretRefSchema.optional().describe(
    'The Slack incoming-webhook URL, a secret: { "env": "NAME" }. One message per event; excludes botToken.',
  ),
  botToken: SecretRefSchema.optional().describe(
    'A Slack app\'s bot token (xoxb-…), a secret: { "env": "NAME" }. The kitchen\'s board: one message per establishment and day, each order a reply edited in place; needs channel; excludes webhookUrl.',
  ),
  channel: SlackChannel.optional().describe(
    'With botToken: the id of the channel the board goes to, e.g. "C0123ABCD"; the app must be invited to it.',
  ),
  apiUrl: SlackApiUrl.optional().describe(
    'With botToken: the Slack Web API base URL. Default "https://slack.com/api"; https only, http only to this machine (tests, the simulator).',
  ),
})
  .superRefine((subscriber, ctx) => {
    const raw = subscriber as Record<string, unknown>;
    const hook = raw.webhookUrl !== undefined;
    const app = raw.botToken !== undefined;
    if (hook && app) {
      ctx.addIssue({
        code: 'custom',
        path: ['botToken'],
        message:
          "webhookUrl and botToken exclude each other: keep webhookUrl for one message per event, or botToken and channel for the kitchen's board",
      });
      return;
    }
    if (!hook && !app) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhookUrl'],
        message:
          "required: webhookUrl (an incoming webhook, one message per event) or botToken and channel (a Slack app, the kitchen's board)",
      });
      return;
    }
    if (app && raw.channel === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['channel'],
        message: 'required with botToken: the id of the channel the board goes to, e.g. "C0123ABCD"',
      });
    for (const key of ['channel', 'apiUrl'] as const) {
      if (hook && raw[key] !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `only a Slack app subscriber (botToken) takes ${key}; an incoming webhook posts to its own channel`,
        });
    }
  }, ALWAYS)
  .describe("Messages to a Slack channel: an incoming webhook, or a Slack app keeping the kitchen's board.");
export type SlackSubscriber = z.infer<typeof SlackSubscriberSchema>;

/** A Slack subscriber that keeps the kitchen's board through a Slack app (botToken) rather than a webhook. */
export function isSlackAppSubscriber(
  subscriber: SubscriberConfig,
): subscriber is SlackSubscriber & { botToken: SecretRef; channel: string } {
  return subscriber.type === 'slack' && subscriber.botToken !== undefined;
}

/** The one secret a Slack subscriber is built from, and the field that names it. */
export function slackSecretOf(subscriber: SlackSubscriber): {
  field: 'webhookUrl' | 'botToken';
  ref: SecretRef;
} {
  if (subscriber.botToken !== undefined) return { field: 'botToken', ref: subscriber.botToken };
  // The schema requires one of the two.
  return { field: 'webhookUrl', ref: subscriber.webhookUrl as SecretRef };
}

const EmailAddress = z.email({
  error: (issue) =>
    issue.code === 'invalid_format' ? `${quoted(issue.input)} is not an e-mail address` : undefined,
});

export const DIGEST_PERIODS = ['1h', '1d'] as const;
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * Events of `types` gathered into one e-mail per period instead of one each: hourly (on the hour) or
 * daily, the day ending at `at` in the organization's time zone.
 */
export const DigestConfigSchema = strictObject({
  every: oneOf(DIGEST_PERIODS, 'a digest period').describe(
    'How often the digest goes: "1h" (each hour, on the hour) or "1d" (each day at "at").',
  ),
  at: z
    .string()
    .regex(CLOCK_TIME, {
      error: (issue) => `${quoted(issue.input)} is not a time of day; write it as HH:MM, e.g. "17:30"`,
    })
    .optional()
    .describe('For "1d": the time of day (HH:MM, in the organization\'s time zone) each daily period ends.'),
  types: listOf(chosenType(), 'list at least one event type to gather into the digest').describe(
    'The event types gathered into the digest; every other type is still sent at once.',
  ),
}).superRefine((digest, ctx) => {
  const raw = digest as { every?: unknown; at?: unknown };
  if (raw.every === '1d' && raw.at === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['at'],
      message: 'required for a daily digest: the time of day its period ends, e.g. "17:30"',
    });
  if (raw.every === '1h' && raw.at !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['at'],
      message: 'an hourly digest ends on each hour; remove "at", or use "every": "1d"',
    });
}, ALWAYS);
export type DigestConfig = z.infer<typeof DigestConfigSchema>;

export const EmailSubscriberSchema = strictObject({
  type: z.literal('email'),
  ...humanBase,
  to: listOf(EmailAddress, 'list at least one recipient').describe('Recipient addresses.'),
  digest: DigestConfigSchema.optional().describe(
    'Gathers events of some types into one e-mail per period; the other types are still sent at once.',
  ),
}).describe('E-mail alerts, through the smtp server.');
export type EmailSubscriber = z.infer<typeof EmailSubscriberSchema>;

export const SubscriberConfigSchema = z.discriminatedUnion(
  'type',
  [WebhookSubscriberSchema, SlackSubscriberSchema, EmailSubscriberSchema],
  {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      const type = (issue.input as { type?: unknown } | undefined)?.type;
      const expected = `expected one of ${SUBSCRIBER_TYPES.join(', ')}`;
      return type === undefined
        ? `required: the subscriber type, ${expected}`
        : `${quoted(type)} is not a subscriber type${didYouMean(type, SUBSCRIBER_TYPES)}; ${expected}`;
    },
  },
);
export type SubscriberConfig = z.infer<typeof SubscriberConfigSchema>;
export type SubscriberType = SubscriberConfig['type'];

export const SmtpConfigSchema = strictObject({
  // An SMTP URL carries the password.
  url: SecretRefSchema.describe('The SMTP URL (smtp://user:password@host:587), a secret: { "env": "NAME" }.'),
  from: NonEmptyText.describe('The From header, e.g. "Alerts <alerts@example.org>".'),
});
export type SmtpConfig = z.infer<typeof SmtpConfigSchema>;

/** Relative to the config file. */
export const DEFAULT_STATE_PATH = '.data/state.db';

export const StateConfigSchema = strictObject({
  path: z
    .string()
    .min(1, { error: 'must not be empty' })
    .default(DEFAULT_STATE_PATH)
    .describe('The SQLite state file of the local runner, relative to the config file.'),
});
export type StateConfig = z.infer<typeof StateConfigSchema>;

export const ConfigSchema = strictObject({
  api: ApiConfigSchema,
  organizations: z
    .array(OrganizationConfigSchema)
    .min(1, { error: 'list at least one organization to poll' })
    .superRefine((organizations, ctx) => {
      reportDuplicates(organizations, 'id', 'organization id', ctx, (id) => id.toLowerCase());
      reportDuplicates(organizations, 'name', 'organization name', ctx, (name) => name.trim());
    }, ALWAYS)
    .describe('The organizations to poll, each with its own token.'),
  subscribers: z
    .array(SubscriberConfigSchema)
    .superRefine((subscribers, ctx) => reportDuplicates(subscribers, 'id', 'subscriber id', ctx), ALWAYS)
    .default(() => [])
    .describe('Where events go: webhook, slack or email subscribers.'),
  smtp: SmtpConfigSchema.optional().describe('The mail server; required when an e-mail subscriber exists.'),
  state: StateConfigSchema.prefault({}).describe('Where the local runner keeps its state.'),
  // Editors read it to complete and check the file (meal-notifier config-schema writes the schema).
  $schema: z
    .string()
    .optional()
    .describe(
      'The JSON Schema this file follows, for editors, e.g. "./notifier.schema.json"; ignored by the notifier.',
    ),
}).superRefine((config, ctx) => {
  const raw = config as { subscribers?: unknown; smtp?: unknown } | undefined;
  if (typeof raw !== 'object' || raw === null || raw.smtp !== undefined || !Array.isArray(raw.subscribers))
    return;
  const emailed = raw.subscribers.find((subscriber) => fieldOf(subscriber, 'type') === 'email');
  if (emailed === undefined) return;
  const id = fieldOf(emailed, 'id');
  const who = typeof id === 'string' ? `subscriber ${quoted(id)}` : 'an e-mail subscriber';
  ctx.addIssue({
    code: 'custom',
    path: ['smtp'],
    message: `required: ${who} sends e-mail, which needs an SMTP server`,
  });
}, ALWAYS);
/** `$schema` is for editors only: parseConfig drops it. */
export type Config = Omit<z.infer<typeof ConfigSchema>, '$schema'>;
/** The config as written, before defaults: what example files and tests build. */
export type ConfigInput = z.input<typeof ConfigSchema>;

function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Flags every repeat of a string field after its first use, at the repeat's own path. */
function reportDuplicates(
  items: unknown,
  key: string,
  noun: string,
  ctx: z.core.$RefinementCtx,
  normalize: (value: string) => string = (value) => value,
): void {
  if (!Array.isArray(items)) return;
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const value = fieldOf(item, key);
    if (typeof value !== 'string') return;
    const normalized = normalize(value);
    if (seen.has(normalized)) {
      ctx.addIssue({ code: 'custom', path: [index, key], message: `duplicate ${noun} ${quoted(value)}` });
    }
    seen.add(normalized);
  });
}
