// The AsyncAPI 3.0 document of the webhooks: a message per type of the union whose payload is the event
// catalog's definition (a sample of each type validates against it), the Standard Webhooks headers as
// the sender writes them, every reference resolving inside the document, and the signing scheme, the
// answers and the retry schedule told with the figures the code acts on.
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { sampleEventFor } from '../../../cli/sendTest/sampleEventFor.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { RETRY_SCHEDULE_MS } from '../../../shared/delivery/retrySchedule.js';
import { signWebhook } from '../../../shared/delivery/webhook/signWebhook.js';
import { webhookAsyncApi } from '../../../shared/delivery/webhook/webhookAsyncApi.js';
import { EVENT_TYPES } from '../../../shared/events/notifierEvent.js';
import { PRODUCT_VERSION } from '../../../shared/version.js';
import { exampleConfig } from '../../support/configFixtures.js';
import { makeWebhookSecret } from '../../support/webhookReceiver.js';

interface Document {
  asyncapi: string;
  info: { title: string; version: string; description: string };
  channels: Record<string, { messages: Record<string, { $ref: string }> }>;
  operations: Record<string, { action: string; description: string; messages: { $ref: string }[] }>;
  components: {
    messages: Record<string, { headers: { $ref: string }; payload: { $ref: string } }>;
    schemas: Record<string, Record<string, unknown>>;
  };
}

const NOW = Date.parse('2026-11-23T10:15:03.000Z');
const document = webhookAsyncApi() as unknown as Document;

/** What a JSON pointer (`#/a/b`) names in the document, or undefined. */
function resolve(pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
}

function refs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refs);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' ? [value] : refs(value),
  );
}

/** A schema of the document's components, compiled as AsyncAPI tools read them: JSON Schema draft-07. */
function schemaAt(pointer: string): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema(document, 'asyncapi');
  const validate = ajv.getSchema(`asyncapi${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate;
}

describe('webhookAsyncApi', () => {
  it('is AsyncAPI 3.0.0 for this version, with one send operation over one channel', () => {
    expect(document.asyncapi).toBe('3.0.0');
    expect(document.info.version).toBe(PRODUCT_VERSION);
    expect(Object.values(document.operations).map((operation) => operation.action)).toEqual(['send']);
    expect(Object.keys(document.channels)).toHaveLength(1);
  });

  it('has a message per type of the union, in the channel, the operation and the components', () => {
    const [channel] = Object.values(document.channels);
    const [operation] = Object.values(document.operations);
    expect(Object.keys(document.components.messages)).toEqual([...EVENT_TYPES]);
    expect(Object.keys(channel?.messages ?? {})).toEqual([...EVENT_TYPES]);
    expect(operation?.messages).toHaveLength(EVENT_TYPES.length);
    for (const type of EVENT_TYPES) {
      expect(document.components.messages[type]?.payload).toEqual({ $ref: `#/components/schemas/${type}` });
    }
  });

  it('resolves every reference inside the document', () => {
    const unresolved = refs(document).filter((ref) => !ref.startsWith('#/') || resolve(ref) === undefined);
    expect(unresolved).toEqual([]);
    expect(refs(document)).toContain('#/components/schemas/OrderSummary');
  });

  it.each(EVENT_TYPES)('takes the %s sample send-test sends as its payload', (type) => {
    const config = parseConfig(exampleConfig());
    const [subscriber] = config.subscribers;
    if (!subscriber) throw new Error('the example config has subscribers');
    const event = JSON.parse(JSON.stringify(sampleEventFor(config, subscriber, type, NOW)));
    const payload = schemaAt(`#/components/schemas/${type}`);
    expect(payload(event), JSON.stringify(payload.errors)).toBe(true);
    const other = EVENT_TYPES.find((candidate) => candidate !== type);
    expect(schemaAt(`#/components/schemas/${other}`)(event)).toBe(false);
  });

  it('declares the Standard Webhooks headers the sender writes, one signature per secret', () => {
    const headers = schemaAt(document.components.messages['order.created']?.headers.$ref ?? '');
    const id = 'a1870e18-88a8-8878-b75d-818d42f807de';
    const timestamp = Math.floor(NOW / 1000);
    const secrets = [makeWebhookSecret(), makeWebhookSecret()];
    const signed = {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook({ id, timestamp, body: '{}', secrets }),
    };
    expect(headers(signed), JSON.stringify(headers.errors)).toBe(true);
    expect(headers({ ...signed, 'webhook-signature': 'v2,abc=' })).toBe(false);
    const { 'webhook-timestamp': _timestamp, ...unstamped } = signed;
    expect(headers(unstamped)).toBe(false);
  });

  it('tells the signing scheme, the answers and the retry schedule with the figures the code acts on', () => {
    const text = `${document.info.description}\n${Object.values(document.operations)[0]?.description}`;
    expect(text).toContain('HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`');
    expect(text).toContain('`whsec_`');
    expect(text).toMatch(/- 410 Gone: .*the subscriber is disabled/);
    expect(text).toContain(`${RETRY_SCHEDULE_MS.length} attempts in all`);
    expect(text).toContain('5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h');
    expect(text).toContain('waits 15 s at most');
  });

  it('keeps to the types asked for', () => {
    const only = webhookAsyncApi({
      types: ['order.canceled', 'establishment.prep_summary'],
    }) as unknown as Document;
    expect(Object.keys(only.components.messages)).toEqual(['order.canceled', 'establishment.prep_summary']);
    expect(Object.keys(only.components.schemas)).not.toContain('order.created');
  });
});
