// One record per Admin API request for --verbose: what was asked, what came back, how long it took, and
// whether a retry follows.
import type { AttemptReport } from '../../shared/api/adminApiClient.js';
import type { LogRecord } from '../logging/logger.js';

export function attemptRecord(organization: string, attempt: AttemptReport): LogRecord {
  const outcome = attempt.error?.message ?? String(attempt.status);
  const retry = attempt.retryInMs === undefined ? '' : `; retrying in ${attempt.retryInMs} ms`;
  return {
    level: attempt.error ? 'warn' : 'debug',
    kind: 'request',
    message: `[api] ${organization} ${attempt.endpoint} attempt ${attempt.attempt}: ${outcome} (${attempt.durationMs} ms)${retry}`,
    fields: {
      organization,
      endpoint: attempt.endpoint,
      attempt: attempt.attempt,
      status: attempt.status ?? null,
      durationMs: attempt.durationMs,
      ...(attempt.retryInMs === undefined ? {} : { retryInMs: attempt.retryInMs }),
      ...(attempt.error ? { error: attempt.error.message } : {}),
    },
  };
}
