// Vitest global setup of the system tests: DynamoDB Local started and the CLI built, side by side, since
// the JVM's start is mostly waiting and the build is mostly computing.
import type { TestProject } from 'vitest/node';
import { buildCli } from './cliBuild.js';
import { startDynamoLocalFor } from './dynamodbLocal.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [dynamo, build] = await Promise.allSettled([startDynamoLocalFor(project), buildCli()]);
  if (build.status === 'rejected') {
    // No test runs: the JVM would otherwise outlive the run.
    if (dynamo.status === 'fulfilled') await dynamo.value();
    throw build.reason;
  }
  if (dynamo.status === 'rejected') throw dynamo.reason;
  return dynamo.value;
}
