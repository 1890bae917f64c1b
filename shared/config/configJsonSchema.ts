// The config file's JSON Schema (draft 2020-12), generated from the zod schema so that it can never
// disagree with it, for editors to complete and check a config as it is written. Cross-field rules (a
// known time zone, a duplicate id, an SNS-expressible filter) stay check-config's.
import * as z from 'zod';
import { ConfigSchema } from './configSchema.js';

export function configJsonSchema(): Record<string, unknown> {
  // The input side: what a person writes, with defaults optional, before transforms.
  const schema = z.toJSONSchema(ConfigSchema, { target: 'draft-2020-12', io: 'input' });
  return {
    ...schema,
    title: 'meal-order-notifier config',
    description:
      'The config of meal-order-notifier: the Admin API, the organizations to poll and the subscribers to deliver to. Secrets are { "env": "NAME" } references, never values. meal-notifier check-config FILE checks what a schema cannot.',
  };
}
