// `meal-notifier event-schema`, run as a real process: the catalog is one JSON document that ajv compiles
// as draft 2020-12, with a definition per type of the union; --type narrows it to one type's schema,
// --lenient loosens what only new events carry, --output writes it to a file; --asyncapi prints the
// webhooks' AsyncAPI 3.0 document; an unknown type is refused in the words every --type uses.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../shared/events/notifierEvent.js';
import { runCli } from '../support/runCli.js';

interface Catalog {
  $schema: string;
  oneOf: { $ref: string }[];
  $defs: Record<string, { title?: string; required?: string[]; properties?: Record<string, unknown> }>;
}

let dir: string;
let catalogText: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'event-schema-'));
  const result = await runCli(['event-schema']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  catalogText = result.stdout;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier event-schema', () => {
  it('prints one JSON Schema (draft 2020-12) that ajv compiles, with a definition per event type', () => {
    const catalog = JSON.parse(catalogText) as Catalog;
    expect(catalog.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(catalog.oneOf).toEqual(EVENT_TYPES.map((type) => ({ $ref: `#/$defs/${type}` })));
    for (const type of EVENT_TYPES)
      expect(catalog.$defs[type]?.properties?.type).toMatchObject({ const: type });
    expect(() => new Ajv2020({ strict: true, validateFormats: false }).compile(catalog)).not.toThrow();
    expect(catalog.$defs.OrderSummary?.required).toContain('currency');
  });

  it('--type narrows it to one type’s schema, --lenient leaves optional what older events lack', async () => {
    const result = await runCli(['event-schema', '--type', 'canceled', '--lenient']);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as Catalog & { title: string; properties: { type: unknown } };
    expect(schema.title).toBe('OrderCanceledEvent');
    expect(schema.properties.type).toMatchObject({ const: 'order.canceled' });
    expect(schema.oneOf).toBeUndefined();
    expect(schema.$defs.OrderSummary?.required).not.toContain('currency');
  });

  it('--asyncapi prints an AsyncAPI 3.0.0 document with a message per type and the three webhook headers', async () => {
    const file = join(dir, 'webhooks.asyncapi.json');
    const result = await runCli(['event-schema', '--asyncapi', '--output', file]);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const document = JSON.parse(await readFile(file, 'utf8')) as {
      asyncapi: string;
      components: {
        messages: Record<string, { headers: { $ref: string } }>;
        schemas: Record<string, { required?: string[] }>;
      };
    };
    expect(document.asyncapi).toBe('3.0.0');
    expect(Object.keys(document.components.messages)).toEqual([...EVENT_TYPES]);
    const headers = document.components.messages['order.created']?.headers.$ref.split('/').at(-1) ?? '';
    expect(document.components.schemas[headers]?.required).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });

  it('refuses an unknown type with one line, the nearest type and every known one, exit 2', async () => {
    const result = await runCli(['event-schema', '--type', 'order.cancelled']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `meal-notifier: --type "order.cancelled" is not an event type (did you mean order.canceled?); known: ${EVENT_TYPES.join(', ')}\n`,
    );
  });

  it('refuses an --output it cannot write, with one line, exit 2', async () => {
    const file = join(dir, 'missing', 'events.schema.json');
    const result = await runCli(['event-schema', '--output', file]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `meal-notifier: --output ${file}: cannot write it: its directory does not exist\n`,
    );
  });
});
