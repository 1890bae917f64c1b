// Reads a DynamoDB Local table's stream back, from its start, as the records Lambda hands a stream
// function: the DynamoDB Streams API (DescribeStream, GetShardIterator, GetRecords) spoken directly over
// awsJson1_0 on the loopback endpoint, since its SDK client is not a dependency. DynamoDB Local does not
// check signatures, so requests carry a well-formed but unsigned Authorization header.
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

export class StreamReadError extends Error {
  constructor(operation: string, status: number, body: string) {
    super(`DynamoDB Local Streams ${operation} answered ${status}: ${body.slice(0, 300)}`);
    this.name = 'StreamReadError';
  }
}

interface Shard {
  ShardId: string;
  ParentShardId?: string;
}

/**
 * Every record of `tableName`'s stream so far, shard by shard (parents first) in sequence order, each with
 * `eventSourceARN` set to the stream's ARN as Lambda sets it.
 */
export async function readStreamRecords(
  client: DynamoDBClient,
  endpoint: string,
  tableName: string,
): Promise<DynamoDBRecord[]> {
  const table = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const streamArn = table.Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} has no stream; create it with StreamSpecification`);
  const call = streamsCaller(endpoint);

  const shards: Shard[] = [];
  let exclusiveStartShardId: string | undefined;
  do {
    const page = (await call('DescribeStream', {
      StreamArn: streamArn,
      ...(exclusiveStartShardId ? { ExclusiveStartShardId: exclusiveStartShardId } : {}),
    })) as { StreamDescription: { Shards?: Shard[]; LastEvaluatedShardId?: string } };
    shards.push(...(page.StreamDescription.Shards ?? []));
    exclusiveStartShardId = page.StreamDescription.LastEvaluatedShardId;
  } while (exclusiveStartShardId);

  const records: DynamoDBRecord[] = [];
  for (const shard of parentsFirst(shards)) {
    let { ShardIterator: iterator } = (await call('GetShardIterator', {
      StreamArn: streamArn,
      ShardId: shard.ShardId,
      ShardIteratorType: 'TRIM_HORIZON',
    })) as { ShardIterator?: string };
    // An open shard always hands out a next iterator; an empty page means it has nothing more yet.
    while (iterator) {
      const page = (await call('GetRecords', { ShardIterator: iterator })) as {
        Records?: DynamoDBRecord[];
        NextShardIterator?: string;
      };
      const batch = page.Records ?? [];
      records.push(...batch.map((record) => ({ ...record, eventSourceARN: streamArn })));
      iterator = batch.length > 0 ? page.NextShardIterator : undefined;
    }
  }
  return records;
}

function streamsCaller(endpoint: string) {
  return async (operation: string, input: unknown): Promise<unknown> => {
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDBStreams_20120810.${operation}`,
        'x-amz-date': amzDate,
        authorization: `AWS4-HMAC-SHA256 Credential=local/${amzDate.slice(0, 8)}/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${'0'.repeat(64)}`,
      },
      body: JSON.stringify(input),
    });
    const text = await response.text();
    if (!response.ok) throw new StreamReadError(operation, response.status, text);
    return JSON.parse(text) as unknown;
  };
}

/** Shards in an order where each comes after its parent (when the parent is still listed). */
function parentsFirst(shards: readonly Shard[]): Shard[] {
  const byId = new Map(shards.map((shard) => [shard.ShardId, shard]));
  const ordered: Shard[] = [];
  const placed = new Set<string>();
  const place = (shard: Shard) => {
    if (placed.has(shard.ShardId)) return;
    const parent = shard.ParentShardId ? byId.get(shard.ParentShardId) : undefined;
    if (parent) place(parent);
    placed.add(shard.ShardId);
    ordered.push(shard);
  };
  for (const shard of shards) place(shard);
  return ordered;
}
