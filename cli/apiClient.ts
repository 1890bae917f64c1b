// Builds the Admin API client for a one-shot CLI command, with --verbose reporting each attempt.
import { AdminApiClient, type AttemptReport } from '../shared/api/adminApiClient.js';
import { createUndiciHttpClient } from '../shared/http/undiciHttpClient.js';
import type { Connection } from './connection.js';

export function createCliApiClient(connection: Connection, verbose: boolean): AdminApiClient {
  return new AdminApiClient({
    baseUrl: connection.baseUrl,
    organizationId: connection.organizationId,
    ...(connection.organizationName === undefined ? {} : { organizationName: connection.organizationName }),
    token: connection.token,
    httpClient: createUndiciHttpClient,
    ...(verbose
      ? { onAttempt: (report: AttemptReport) => process.stderr.write(`${describeAttempt(report)}\n`) }
      : {}),
  });
}

function describeAttempt(report: AttemptReport): string {
  const outcome = report.error ? report.error.message : `${report.status}`;
  const retry = report.retryInMs === undefined ? '' : `, retrying in ${report.retryInMs} ms`;
  return `[api] ${report.endpoint} attempt ${report.attempt}: ${outcome} (${report.durationMs} ms)${retry}`;
}
