// The state table as the DynamoDB adapters reach it: every request goes through `send`, which sends it,
// counts it (when the adapter keeps metrics), turns its failure into a typed store error, and hands a
// failed condition back as an outcome to a caller that expects one (a lease someone else holds, an event
// already logged) instead of an error.
import { type ConsumedCapacity, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  type DynamoDBDocumentClientResolvedConfig,
  GetCommand,
  QueryCommand,
  type ServiceInputTypes,
  type ServiceOutputTypes,
} from '@aws-sdk/lib-dynamodb';
import type { Command } from '@smithy/types';
import type { StateStoreError } from '../errors.js';
import { cancellationReasons, isConditionalCheckFailure, toStoreError } from './dynamoErrors.js';
import { type DynamoMetrics, tallyOf } from './dynamoMetrics.js';

/** A Document Client command, as `DynamoDBDocumentClient.send` takes it. */
export type TableCommand<Input extends ServiceInputTypes, Output extends ServiceOutputTypes> = Command<
  ServiceInputTypes,
  Input,
  ServiceOutputTypes,
  Output,
  DynamoDBDocumentClientResolvedConfig
>;

/** What a request to the table gives back: each says what capacity it consumed, when asked. */
type TableOutput = ServiceOutputTypes & {
  ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] | undefined;
};

/** A request refused by its condition (for a transaction: by the conditions of some of its items). */
export interface ConditionFailure {
  /** Positions of the items whose condition failed: `[0]` for a request of one item. */
  items: number[];
  /** Whether other items of the transaction failed too, for another reason (throttling, a conflict). */
  otherFailure: boolean;
  /** The typed error the request is otherwise: to throw when the caller cannot take it as an outcome. */
  error: StateStoreError;
}

export interface SendOptions<Fallback> {
  /**
   * Takes a failed condition as an outcome: what it returns is returned instead of an error. Without it, a
   * failed condition is an error like any other.
   */
  onConditionFailed?: (failure: ConditionFailure) => Fallback;
}

export interface StateTableClientOptions {
  /** Build it once at module scope and share it: the table never creates or destroys clients. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  /** Where requests are counted, per store operation. @default not counted */
  metrics?: DynamoMetrics;
}

export class StateTableClient {
  readonly name: string;
  readonly client: DynamoDBDocumentClient;
  readonly #metrics: DynamoMetrics | undefined;

  constructor(options: StateTableClientOptions) {
    this.client =
      options.client instanceof DynamoDBClient
        ? DynamoDBDocumentClient.from(options.client, { marshallOptions: { removeUndefinedValues: true } })
        : options.client;
    this.name = options.tableName;
    this.#metrics = options.metrics;
  }

  /**
   * Sends one request for the store method `operation` (named in errors; counted under its `tallyOf`, as
   * a read for a Get, BatchGet or Query, else a write), for the organization (undefined for store-wide work).
   */
  async send<Input extends ServiceInputTypes, Output extends TableOutput, Fallback = never>(
    operation: string,
    organizationId: string | undefined,
    command: TableCommand<Input, Output>,
    options: SendOptions<Fallback> = {},
  ): Promise<Output | Fallback> {
    const tally = tallyOf(operation);
    try {
      if (this.#metrics === undefined || tally === undefined) return await this.client.send(command);
      const access =
        command instanceof GetCommand || command instanceof QueryCommand || command instanceof BatchGetCommand
          ? 'read'
          : 'write';
      return await this.#metrics.measure(tally, access, () => this.client.send(command));
    } catch (error) {
      const items = options.onConditionFailed && conditionFailedItems(error);
      if (!options.onConditionFailed || !items) throw toStoreError(error, operation, organizationId);
      const otherFailure = (cancellationReasons(error) ?? []).some(
        (reason) => (reason.Code ?? 'None') !== 'None' && reason.Code !== 'ConditionalCheckFailed',
      );
      return options.onConditionFailed({
        items,
        otherFailure,
        error: toStoreError(error, operation, organizationId),
      });
    }
  }
}

/** The positions of the items whose condition failed, or undefined when no condition failed. */
function conditionFailedItems(error: unknown): number[] | undefined {
  if (isConditionalCheckFailure(error)) return [0];
  const items = (cancellationReasons(error) ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [index] : [],
  );
  return items.length > 0 ? items : undefined;
}
