// For the system tests' global setup (system.ts): starts the official DynamoDB Local (the jar inside
// amplify-dynamodb-simulator) in memory on a free loopback port, provides its endpoint as `dynamoEndpoint`,
// and stops it afterwards.
// The launcher lives in bench/support so the benchmarks start it the same way.
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../bench/support/dynamoLocal.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** e.g. `http://127.0.0.1:43210`: DynamoDB Local, shared by every test file. */
    dynamoEndpoint: string;
  }
}

/** Starts it and provides its endpoint to the project's tests; resolves to what stops it. */
export async function startDynamoLocalFor(project: TestProject): Promise<() => Promise<void>> {
  const dynamo = await startDynamoLocal();
  if (process.env.DYNAMO_LOCAL_VERBOSE) console.info(`DynamoDB Local ready in ${dynamo.startupMs} ms`);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
