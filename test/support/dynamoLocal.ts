// Clients and throwaway state tables on the DynamoDB Local that global setup started (loopback only).
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createStateTableInput } from '../../shared/contracts/stateTableDefinition.js';

export interface LocalTable {
  client: DynamoDBClient;
  tableName: string;
  /** Deletes the table and closes the client. */
  drop(): Promise<void>;
}

export function localDynamoClient(): DynamoDBClient {
  const endpoint = inject('dynamoEndpoint');
  if (!new URL(endpoint).hostname.startsWith('127.')) throw new Error(`not a loopback endpoint: ${endpoint}`);
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/**
 * A new, uniquely named state table (DynamoDB Local creates it at once). TTL stays off: tests run on injected
 * clocks in the past, and DynamoDB Local's TTL sweeper, on the wall clock, would delete their items mid-test.
 */
export async function createLocalStateTable(): Promise<LocalTable> {
  const client = localDynamoClient();
  const tableName = `state-${randomUUID()}`;
  await client.send(new CreateTableCommand(createStateTableInput(tableName)));
  return {
    client,
    tableName,
    drop: async () => {
      await client.send(new DeleteTableCommand({ TableName: tableName }));
      client.destroy();
    },
  };
}
