// The Admin API client of a one-shot CLI command (establishments, orders): the flags such a command
// takes (--verbose and the connection, with the connection's help), and the client itself, with --verbose
// reporting each attempt on stderr, counting in the budget of the config's state file when there is one,
// closed when the command is done with it.
import type { Command } from 'commander';
import { AdminApiClient, type AttemptReport } from '../shared/api/adminApiClient.js';
import { AdminApiError } from '../shared/api/errors.js';
import { RequestBudget } from '../shared/api/requestBudget.js';
import { describeApiFailure } from '../shared/config/explainApiFailure.js';
import { createUndiciHttpClient } from '../shared/http/undiciHttpClient.js';
import { openStateFileBudget, type StateFileBudget } from '../shared/store/sqlite/stateFileBudget.js';
import { addConnectionOptions, CONNECTION_HELP, type Connection, resolveConnection } from './connection.js';
import { ApiRequestFailedError } from './errors.js';
import { stderrSink } from './output/outputSink.js';

/** Adds --verbose and the connection's flags, and after the options the connection's help, then `examples`. */
export function withApiClientOptions(command: Command, examples: string): Command {
  command.option('--verbose', 'report every request on stderr');
  addConnectionOptions(command);
  return command.addHelpText('after', `${CONNECTION_HELP}\n\nExamples:\n${examples}`);
}

/**
 * Runs `use` with a client for the connection the command was given, and closes the client after it.
 * @throws ApiRequestFailedError worded as poll and check-config --ping word the same failure
 */
export async function withCliApiClient(
  command: Command,
  verbose: boolean,
  use: (client: AdminApiClient) => Promise<void>,
): Promise<void> {
  const connection = await resolveConnection(command);
  // A poller of the same config counts its requests in its state file: so do these, in the same minute.
  const shared = connection.budget && openStateFileBudget(connection.budget.statePath);
  const client = createCliApiClient(connection, verbose, shared);
  try {
    await use(client);
  } catch (error) {
    if (!(error instanceof AdminApiError)) throw error;
    throw new ApiRequestFailedError(describeApiFailure(error, connection.target), { cause: error });
  } finally {
    await client.close();
    shared?.close();
  }
}

function createCliApiClient(
  connection: Connection,
  verbose: boolean,
  shared: StateFileBudget | undefined,
): AdminApiClient {
  const stderr = stderrSink();
  return new AdminApiClient({
    baseUrl: connection.baseUrl,
    organizationId: connection.organizationId,
    ...(connection.organizationName === undefined ? {} : { organizationName: connection.organizationName }),
    token: connection.token,
    ...(shared && connection.budget
      ? {
          budget: new RequestBudget({
            token: connection.token,
            requestsPerMinute: connection.budget.requestsPerMinute,
            store: shared.counters,
          }),
        }
      : {}),
    httpClient: createUndiciHttpClient,
    ...(verbose ? { onAttempt: (report: AttemptReport) => stderr.line(describeAttempt(report)) } : {}),
  });
}

function describeAttempt(report: AttemptReport): string {
  const outcome = report.error ? report.error.message : `${report.status}`;
  const retry = report.retryInMs === undefined ? '' : `, retrying in ${report.retryInMs} ms`;
  return `[api] ${report.endpoint} attempt ${report.attempt}: ${outcome} (${report.durationMs} ms)${retry}`;
}
