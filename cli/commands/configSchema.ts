// `meal-notifier config-schema`: prints the config's JSON Schema, for editors to complete and check a
// config file as it is written.
import { Command } from 'commander';
import { configJsonSchema } from '../../shared/config/configJsonSchema.js';
import { stdoutSink } from '../output/outputSink.js';

export function configSchemaCommand(): Command {
  return new Command('config-schema')
    .description("Print the config file's JSON Schema (draft 2020-12), for editor completion and checks")
    .addHelpText(
      'after',
      `
Save it beside the config and name it in the config's "$schema" key; VS Code (and other editors that read
JSON Schema) then complete keys, show what each means, and flag mistakes as you type. It checks the shape;
meal-notifier check-config FILE also checks time zones, secrets and subscribers.

Examples:
  $ meal-notifier config-schema > notifier.schema.json
  then, in notifier.json: { "$schema": "./notifier.schema.json", "api": { … }, … }`,
    )
    .action(() => {
      stdoutSink().json(configJsonSchema(), 2);
    });
}
