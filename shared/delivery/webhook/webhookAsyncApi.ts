// The AsyncAPI 3.0 document of the webhook interface (`meal-notifier event-schema --asyncapi`): the
// subscriber's URL, the one operation (the notifier sends), a message per event type whose payload is the
// event catalog's definition of that type, the Standard Webhooks headers, and how requests are signed and
// what the receiver's answer makes the notifier do. Every figure is read from the code that acts on it.
import { type EventCatalogOptions, eventDefinitions, type JsonSchema } from '../../events/eventCatalog.js';
import { MAX_EVENT_BYTES } from '../../events/orderSummary.js';
import { humanDuration } from '../../time/humanDuration.js';
import { PRODUCT_VERSION } from '../../version.js';
import { RETRY_SCHEDULE_MS } from '../retrySchedule.js';
import { MAX_SECRET_BYTES, MIN_SECRET_BYTES } from './signWebhook.js';
import { WEBHOOK_TIMEOUT_MS } from './webhookSender.js';

const CHANNEL = 'webhook';
const OPERATION = 'sendEvent';
const HEADERS = 'StandardWebhooksHeaders';
/** AsyncAPI's HTTP bindings. */
const HTTP_BINDING_VERSION = '0.3.0';

const SIGNED_CONTENT = '<webhook-id>.<webhook-timestamp>.<body>';

/** `5 s, 5 min, …`: the wait before each attempt after the first, once the one before failed. */
function retryWaits(): string {
  return RETRY_SCHEDULE_MS.slice(1)
    .map((ms) => humanDuration(ms))
    .join(', ');
}

const SIGNATURE = `\`v1,\` and the base64 of the HMAC-SHA256 of \`${SIGNED_CONTENT}\` (the exact bytes of the body), keyed with the bytes of the subscriber's secret: \`whsec_\` and the base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes, the key being what follows \`whsec_\`, decoded. A subscriber with several secrets (a rotation) gets one signature per secret, space-separated: accept the request when any of them verifies. Any Standard Webhooks library verifies it.`;

function answers(): string {
  const attempts = RETRY_SCHEDULE_MS.length;
  return [
    `Each attempt POSTs the same body under the same webhook-id, with a fresh webhook-timestamp and signatures, and waits ${humanDuration(WEBHOOK_TIMEOUT_MS)} at most for the whole answer. What the answer makes the notifier do:`,
    '',
    '- any 2xx: delivered;',
    `- 429, any 5xx, a timeout or a network failure: tried again, ${attempts} attempts in all, each after the one before failed by ${retryWaits()} (each ±20 %), never sooner than the answer's Retry-After; after the last, a dead letter;`,
    '- 410 Gone: the endpoint wants no more webhooks: the subscriber is disabled, its queued deliveries become dead letters, and nothing more is sent to it until an operator runs `meal-notifier replay` for it;',
    '- a 3xx (redirects are never followed: the subscriber URL is to be fixed) or any other 4xx: a dead letter at once, not retried.',
    '',
    'An operator may send an event again with `meal-notifier replay`, under its original id. Delivery is at least once: deduplicate on webhook-id (the event id).',
  ].join('\n');
}

/** The Standard Webhooks headers of every request, as a message headers schema. */
function headersSchema(): JsonSchema {
  return {
    type: 'object',
    title: 'Standard Webhooks headers',
    required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
    properties: {
      'webhook-id': {
        type: 'string',
        minLength: 1,
        description:
          "The event's id (the body's `id`): the same on every attempt and every replay, so a receiver deduplicates on it.",
      },
      'webhook-timestamp': {
        type: 'string',
        pattern: '^[0-9]+$',
        description:
          "This attempt's time, in integer Unix seconds; signed, so a receiver can refuse a request too old (Standard Webhooks libraries allow 5 minutes).",
      },
      'webhook-signature': {
        type: 'string',
        pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$',
        description: SIGNATURE,
      },
      'content-type': { type: 'string', const: 'application/json' },
    },
  };
}

/** Every `$ref` into `from` pointed at `to` instead, in a copy. */
function rebased(value: unknown, from: string, to: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rebased(item, from, to));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' && inner.startsWith(from)
        ? `${to}${inner.slice(from.length)}`
        : rebased(inner, from, to),
    ]),
  );
}

/**
 * The document, for every type of the union or only `types` (a subscriber whose filter takes those); each
 * payload is the catalog's definition "as sent", or `lenient`.
 */
export function webhookAsyncApi(options: Omit<EventCatalogOptions, 'target'> = {}): JsonSchema {
  // draft-07: AsyncAPI's own schema format is a superset of it, and every AsyncAPI tool reads it.
  const { key, definitions, entries } = eventDefinitions({ ...options, target: 'draft-07' });
  const schemas = rebased(definitions, `#/${key}/`, '#/components/schemas/') as Record<string, JsonSchema>;
  const messages = Object.fromEntries(
    entries.map(({ type, description }) => [
      type,
      {
        name: type,
        title: schemas[type]?.title,
        ...(description === undefined ? {} : { summary: description }),
        contentType: 'application/json',
        headers: { $ref: `#/components/schemas/${HEADERS}` },
        payload: { $ref: `#/components/schemas/${type}` },
        bindings: { http: { bindingVersion: HTTP_BINDING_VERSION } },
      },
    ]),
  );
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'meal-order-notifier webhooks',
      version: PRODUCT_VERSION,
      description: [
        `What a webhook subscriber of meal-order-notifier receives: each event (one order transition, or a prep summary) as an HTTP POST of its CloudEvent JSON (at most ${MAX_EVENT_BYTES / 1024} KiB), signed per Standard Webhooks. The body is one of the messages below, told apart by its \`type\`; types and keys are added without notice, so ignore a type or a key you do not know.`,
        '',
        `Signature: the webhook-signature header is ${SIGNATURE}`,
        '',
        `What the receiver's answer makes the notifier do (retries, 410 Gone): see the operation ${OPERATION}.`,
      ].join('\n'),
      externalDocs: {
        description: 'Standard Webhooks',
        url: 'https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md',
      },
    },
    defaultContentType: 'application/json',
    servers: {
      subscriber: {
        host: '{host}',
        pathname: '{path}',
        protocol: 'https',
        title: "A webhook subscriber's endpoint",
        description:
          'The `url` (http or https) of a webhook subscriber in the notifier\'s config ("type": "webhook"). Events are POSTed to it.',
        variables: {
          host: { description: "The URL's host, and port if any." },
          path: { description: "The URL's path and query." },
        },
      },
    },
    channels: {
      [CHANNEL]: {
        // The subscriber's URL is the whole address: the server above, whatever its path.
        address: null,
        title: 'Events for one webhook subscriber',
        description:
          "Every event that passes the subscriber's filter, as its CloudEvent; parent e-mail and phone only when it has includeContactDetails.",
        servers: [{ $ref: '#/servers/subscriber' }],
        messages: Object.fromEntries(
          entries.map(({ type }) => [type, { $ref: `#/components/messages/${type}` }]),
        ),
      },
    },
    operations: {
      [OPERATION]: {
        action: 'send',
        channel: { $ref: `#/channels/${CHANNEL}` },
        title: 'Send an event',
        summary: 'POST one event, signed, to the subscriber URL; retried on a schedule until it is taken.',
        description: answers(),
        bindings: { http: { method: 'POST', bindingVersion: HTTP_BINDING_VERSION } },
        messages: entries.map(({ type }) => ({ $ref: `#/channels/${CHANNEL}/messages/${type}` })),
      },
    },
    components: {
      messages,
      schemas: { [HEADERS]: headersSchema(), ...schemas },
    },
  };
}
