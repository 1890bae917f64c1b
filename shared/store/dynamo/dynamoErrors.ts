// Turns DynamoDB SDK failures into the store's typed errors, and reads a canceled transaction's reasons.
import type { CancellationReason } from '@aws-sdk/client-dynamodb';
import { StateStoreError, StoreContentionError, StoreThrottledError } from '../errors.js';

/** Error names (and cancellation reason codes) that mean "too much traffic", after the SDK's own retries. */
const THROTTLING = new Set([
  'ProvisionedThroughputExceededException',
  'ProvisionedThroughputExceeded',
  'ThrottlingException',
  'ThrottlingError',
  'RequestLimitExceeded',
]);
const CONTENTION = new Set([
  'TransactionConflictException',
  'TransactionConflict',
  'TransactionInProgressException',
]);

export function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}

export function isConditionalCheckFailure(error: unknown): boolean {
  return errorName(error) === 'ConditionalCheckFailedException';
}

/** The per-item reasons of a TransactionCanceledException, in request order; undefined for other errors. */
export function cancellationReasons(error: unknown): CancellationReason[] | undefined {
  if (errorName(error) !== 'TransactionCanceledException') return undefined;
  const reasons = (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons;
  return reasons ?? [];
}

export function toStoreError(
  error: unknown,
  operation: string,
  organization: string | undefined,
): StateStoreError {
  if (error instanceof StateStoreError) return error;
  const name = errorName(error);
  const detail = error instanceof Error ? `${name}: ${error.message}` : String(error);
  const codes = (cancellationReasons(error) ?? []).map((reason) => reason.Code ?? 'None');
  if (THROTTLING.has(name) || codes.some((code) => THROTTLING.has(code))) {
    return new StoreThrottledError(operation, organization, detail, { cause: error });
  }
  if (CONTENTION.has(name) || codes.some((code) => CONTENTION.has(code))) {
    return new StoreContentionError(operation, organization, detail, { cause: error });
  }
  return new StateStoreError(operation, organization, detail, { cause: error });
}
