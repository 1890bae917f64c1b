// `meal-notifier event-schema`: prints the event catalog, the JSON Schema of the CloudEvent of every event
// type (or of those asked for), generated from the zod schemas the notifier itself uses; or, with
// --asyncapi, the AsyncAPI 3.0 document of the webhooks. For consumers to validate events and generate
// types from them.
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { webhookAsyncApi } from '../../shared/delivery/webhook/webhookAsyncApi.js';
import { eventCatalog } from '../../shared/events/eventCatalog.js';
import { EVENT_TYPES } from '../../shared/events/notifierEvent.js';
import { CliUsageError } from '../errors.js';
import { eventTypesFlag } from '../eventTypesFlag.js';
import { stdoutSink } from '../output/outputSink.js';
import { reasonOf } from '../poll/eventSink.js';

interface EventSchemaOptions {
  type?: string[];
  asyncapi?: boolean;
  lenient?: boolean;
  output?: string;
}

export function eventSchemaCommand(): Command {
  return new Command('event-schema')
    .description(
      "Print the JSON Schema (draft 2020-12) of every event type's CloudEvent, or the webhooks' AsyncAPI document",
    )
    .option(
      '--type <types>',
      `only these types (short forms such as canceled; repeat it or give a comma list): ${EVENT_TYPES.join(', ')}`,
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option('--asyncapi', 'print the AsyncAPI 3.0 document of the webhook interface instead')
    .option(
      '--lenient',
      'also accept events an earlier version recorded, which may lack keys every event recorded now has',
    )
    .option('--output <file>', 'write it to FILE instead of stdout')
    .addHelpText(
      'after',
      `
The schema has one definition per type in $defs (title, description, "type" as a const) and a top-level
oneOf over them; with a single --type, that type's schema is the root. It is generated from the schemas
the notifier records and reads events with: every event it sends validates against it. Keys every event
recorded now carries are required, though an event an earlier version recorded and delivered late (a
retry, a replay) may lack some: --lenient gives the schema that accepts those too. Types are added
without notice: ignore an event whose type the schema does not have.

--asyncapi describes what a webhook subscriber receives: a message per type (its payload the same
definitions), the Standard Webhooks headers, how requests are signed and what each answer makes the
notifier do. It is JSON, which YAML tools read too.

Examples:
  $ meal-notifier event-schema > events.schema.json
  $ meal-notifier event-schema --type canceled,rescheduled
  $ meal-notifier event-schema --asyncapi --output webhooks.asyncapi.json`,
    )
    .action((options: EventSchemaOptions) => {
      const types = options.type === undefined ? undefined : eventTypesFlag(options.type);
      const selection = { ...(types === undefined ? {} : { types }), lenient: options.lenient === true };
      const document = options.asyncapi ? webhookAsyncApi(selection) : eventCatalog(selection);
      if (options.output === undefined) {
        stdoutSink().json(document, 2);
        return;
      }
      const text = `${JSON.stringify(document, null, 2)}\n`;
      try {
        writeFileSync(options.output, text);
      } catch (error) {
        throw new CliUsageError(`--output ${options.output}: cannot write it: ${reasonOf(error)}`);
      }
    });
}
