// `meal-notifier establishments`: lists the organization's establishments (serving locations).
import { Command } from 'commander';
import { counted } from '../../shared/text/counted.js';
import { createCliApiClient } from '../apiClient.js';
import {
  addConnectionOptions,
  CONNECTION_HELP,
  type ConnectionOptions,
  resolveConnection,
} from '../connection.js';
import { formatEstablishmentsTable } from '../output/establishmentsTable.js';
import { writeListingWarnings } from '../output/listingWarnings.js';
import { outputWidth } from '../output/outputWidth.js';

interface EstablishmentsOptions extends ConnectionOptions {
  json?: boolean;
  verbose?: boolean;
}

export function establishmentsCommand(): Command {
  const command = new Command('establishments')
    .description("List the organization's establishments; their uuids are what Slack subscribers filter on")
    .option('--json', 'print one JSON array of establishments on stdout')
    .option('--verbose', 'report every request on stderr');
  addConnectionOptions(command);
  return command
    .addHelpText(
      'after',
      `${CONNECTION_HELP}

Examples:
  $ meal-notifier establishments
  $ meal-notifier establishments --json
  $ meal-notifier establishments --config notifier.json --organization "North School"`,
    )
    .action(async (options: EstablishmentsOptions, command: Command) => {
      const client = createCliApiClient(await resolveConnection(command), options.verbose ?? false);
      try {
        const listing = await client.listEstablishments();
        writeListingWarnings(listing, process.stderr);
        process.stdout.write(
          options.json
            ? `${JSON.stringify(listing.records, null, 2)}\n`
            : `${formatEstablishmentsTable(listing.records, outputWidth())}\n${counted(listing.records.length, 'establishment')}\n`,
        );
      } finally {
        await client.close();
      }
    });
}
