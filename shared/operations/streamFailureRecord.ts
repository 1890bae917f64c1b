// The record Lambda puts on a stream event source's on-failure destination when it gives up on a batch
// (retries spent, or records older than the mapping's maximum age): where the batch lies in the stream, not
// what it held. Only what republishing needs is required; Lambda's other fields are let through.
import * as z from 'zod';

const StreamFailureRecordSchema = z.object({
  requestContext: z.object({ condition: z.string().optional() }).optional(),
  timestamp: z.string().optional(),
  DDBStreamBatchInfo: z.object({
    shardId: z.string().min(1),
    startSequenceNumber: z.string().regex(/^\d+$/),
    endSequenceNumber: z.string().regex(/^\d+$/),
    streamArn: z.string().min(1),
    /** RFC 3339, to the second: when the batch's first and last records reached the stream. */
    approximateArrivalOfFirstRecord: z.string().optional(),
    approximateArrivalOfLastRecord: z.string().optional(),
    batchSize: z.number().int().optional(),
  }),
});

/** Where a failed batch lies in the stream, and when its records arrived there. */
export interface StreamBatchPosition {
  streamArn: string;
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  /** Epoch ms, or undefined when the record does not say. */
  firstArrivalMs: number | undefined;
  lastArrivalMs: number | undefined;
  /** Why Lambda gave up, e.g. `RetryAttemptsExhausted`, `RecordAgeExceeded`. */
  condition: string | undefined;
}

/** The batch's position, or a one-line problem when the body is not such a record. */
export function readStreamFailureRecord(body: string): StreamBatchPosition | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { problem: 'not JSON, so not a record of a failed stream batch' };
  }
  const parsed = StreamFailureRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: `not a record of a failed stream batch (${issue?.path.join('.') || 'body'}: ${issue?.message})`,
    };
  }
  const info = parsed.data.DDBStreamBatchInfo;
  return {
    streamArn: info.streamArn,
    shardId: info.shardId,
    startSequenceNumber: info.startSequenceNumber,
    endSequenceNumber: info.endSequenceNumber,
    firstArrivalMs: epochMs(info.approximateArrivalOfFirstRecord),
    lastArrivalMs: epochMs(info.approximateArrivalOfLastRecord),
    condition: parsed.data.requestContext?.condition,
  };
}

function epochMs(text: string | undefined): number | undefined {
  const ms = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
