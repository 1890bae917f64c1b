// Stands in, on loopback, for the two AWS services the poller calls besides DynamoDB: Secrets Manager
// (GetSecretValue, from a fixed map of secrets) and SQS (SendMessage, counted and dropped), speaking their
// JSON protocols, so the deployed bundle can run unchanged in a process of its own with its endpoints
// pointed here (AWS_ENDPOINT_URL_SECRETS_MANAGER, AWS_ENDPOINT_URL_SQS).
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AwsStandIn {
  /** e.g. `http://127.0.0.1:43210`, for both services. */
  endpoint: string;
  /** Messages sent to any queue so far. */
  readonly messagesSent: number;
  close(): Promise<void>;
}

/** @param secrets the value of each secret, by its full name */
export async function startAwsStandIn(secrets: Readonly<Record<string, string>>): Promise<AwsStandIn> {
  let messagesSent = 0;
  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    response.end(JSON.stringify(body));
  };
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const target = String(request.headers['x-amz-target'] ?? '');
    if (target === 'secretsmanager.GetSecretValue') {
      const name = String(input.SecretId);
      const value = secrets[name];
      if (value === undefined) {
        answer(response, 400, {
          __type: 'ResourceNotFoundException',
          message: "Secrets Manager can't find the specified secret.",
        });
        return;
      }
      answer(response, 200, {
        ARN: `arn:aws:secretsmanager:us-east-1:123456789012:secret:${name}-AbCdEf`,
        Name: name,
        SecretString: value,
        VersionId: randomUUID(),
        VersionStages: ['AWSCURRENT'],
        CreatedDate: Date.now() / 1000,
      });
      return;
    }
    if (target === 'AmazonSQS.SendMessage') {
      messagesSent += 1;
      const body = String(input.MessageBody ?? '');
      answer(response, 200, {
        MessageId: randomUUID(),
        MD5OfMessageBody: createHash('md5').update(body).digest('hex'),
      });
      return;
    }
    answer(response, 400, { __type: 'UnknownOperationException', message: `not stood in for: ${target}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get messagesSent() {
      return messagesSent;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
