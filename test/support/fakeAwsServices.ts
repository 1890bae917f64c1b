// A loopback stand-in for the three AWS services the functions call that have no local emulator here:
// Secrets Manager (GetSecretValue, awsJson1_1), SNS (Publish and PublishBatch, awsQuery: form-encoded
// requests, XML answers) and SQS (SendMessage, SendMessageBatch and ChangeMessageVisibility, awsJson1_0; and for the operator commands
// ReceiveMessage, ChangeMessageVisibilityBatch, DeleteMessageBatch and GetQueueAttributes over the messages
// it keeps per queue). It answers as
// AWS does for exactly those calls, refusing what AWS would refuse (a json message without `default`, a
// Subject SNS does not take, an eleventh attribute, a batch over its limits, an SQS delay over 900 s), and
// records each one; any other call is refused and recorded, so a test can assert that the functions made
// no call it did not expect.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageAttributeValue } from '@aws-sdk/client-sns';

export interface PublishedMessage {
  topicArn: string;
  /** As sent: with MessageStructure=json, a JSON object of one body per protocol. */
  message: string;
  messageStructure: string | undefined;
  subject: string | undefined;
  attributes: Record<string, MessageAttributeValue>;
}

export interface SentSqsMessage {
  queueUrl: string;
  body: string;
  delaySeconds: number | undefined;
  /** The message attributes as sent: `{ name: { DataType, StringValue } }`. */
  attributes: Record<string, unknown>;
  /** A fair queue's tenant (or a FIFO queue's group); undefined when none was given. */
  messageGroupId?: string;
}

export interface VisibilityChange {
  queueUrl: string;
  receiptHandle: string;
  visibilityTimeout: number;
}

export interface FakeAwsServices {
  /** e.g. `http://127.0.0.1:43210`; also the origin of every queue URL (the SQS client sends to the queue URL's host). */
  readonly origin: string;
  /** The SDK's service-specific endpoint variables, all pointing here. */
  readonly endpointEnvironment: Readonly<Record<string, string>>;
  /** A queue URL served here, as SQS shapes them: `<origin>/<account>/<name>`. */
  queueUrl(account: string, name: string): string;
  /** Secret name → value; GetSecretValue of any other name answers ResourceNotFoundException. */
  readonly secrets: Map<string, string>;
  /** Every GetSecretValue, by secret name, in order. */
  readonly secretsRead: string[];
  readonly published: PublishedMessage[];
  readonly sent: SentSqsMessage[];
  readonly visibilityChanges: VisibilityChange[];
  /** Calls this fake does not serve (`<service> <operation>`), each refused. */
  readonly refused: string[];
  /** The messages on a queue now (sent, not deleted), as the operator commands read and move them. */
  messagesOn(queueUrl: string): readonly StoredSqsMessage[];
  close(): Promise<void>;
}

/** A message kept on a queue: what ReceiveMessage, ChangeMessageVisibilityBatch and DeleteMessageBatch act on. */
export interface StoredSqsMessage extends SentSqsMessage {
  messageId: string;
  sentAtMs: number;
  visibleAtMs: number;
  receiveCount: number;
  /** The receipt handle of the latest receive. */
  receiptHandle: string | undefined;
}

export async function startFakeAwsServices(): Promise<FakeAwsServices> {
  const secrets = new Map<string, string>();
  const state = {
    secretsRead: [] as string[],
    published: [] as PublishedMessage[],
    sent: [] as SentSqsMessage[],
    visibilityChanges: [] as VisibilityChange[],
    refused: [] as string[],
    queues: new Map<string, StoredSqsMessage[]>(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        answer(req, res, body, secrets, state);
      } catch (error) {
        state.refused.push(`unreadable request: ${(error as Error).message}`);
        res.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    endpointEnvironment: {
      AWS_ENDPOINT_URL_SECRETS_MANAGER: origin,
      AWS_ENDPOINT_URL_SNS: origin,
      AWS_ENDPOINT_URL_SQS: origin,
    },
    queueUrl: (account, name) => `${origin}/${account}/${name}`,
    secrets,
    secretsRead: state.secretsRead,
    published: state.published,
    sent: state.sent,
    visibilityChanges: state.visibilityChanges,
    refused: state.refused,
    messagesOn: (queueUrl) => [...(state.queues.get(queueUrl) ?? [])],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Recorded {
  secretsRead: string[];
  published: PublishedMessage[];
  sent: SentSqsMessage[];
  visibilityChanges: VisibilityChange[];
  refused: string[];
  queues: Map<string, StoredSqsMessage[]>;
}

function answer(
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  secrets: ReadonlyMap<string, string>,
  recorded: Recorded,
): void {
  const target = String(req.headers['x-amz-target'] ?? '');
  if (target.startsWith('secretsmanager.')) {
    answerSecretsManager(res, target.slice('secretsmanager.'.length), body, secrets, recorded);
    return;
  }
  if (target.startsWith('AmazonSQS.')) {
    answerSqs(req, res, target.slice('AmazonSQS.'.length), body, recorded);
    return;
  }
  if (String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    answerSns(res, new URLSearchParams(body), recorded);
    return;
  }
  recorded.refused.push(`unknown ${req.method} ${req.url} (target "${target}")`);
  res.writeHead(400).end();
}

// --- Secrets Manager (awsJson1_1) ---------------------------------------------------------------------

function answerSecretsManager(
  res: ServerResponse,
  operation: string,
  body: string,
  secrets: ReadonlyMap<string, string>,
  recorded: Recorded,
): void {
  if (operation !== 'GetSecretValue') {
    recorded.refused.push(`secretsmanager ${operation}`);
    jsonError(res, 'application/x-amz-json-1.1', 'UnsupportedOperation', operation);
    return;
  }
  const { SecretId } = JSON.parse(body) as { SecretId: string };
  recorded.secretsRead.push(SecretId);
  const value = secrets.get(SecretId);
  if (value === undefined) {
    jsonError(
      res,
      'application/x-amz-json-1.1',
      'ResourceNotFoundException',
      "Secrets Manager can't find the specified secret.",
    );
    return;
  }
  json(res, 'application/x-amz-json-1.1', {
    ARN: `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${SecretId}-AbCdEf`,
    Name: SecretId,
    SecretString: value,
    VersionId: randomUUID(),
    VersionStages: ['AWSCURRENT'],
    CreatedDate: Date.now() / 1000,
  });
}

// --- SQS (awsJson1_0) -----------------------------------------------------------------------------------

function answerSqs(
  req: IncomingMessage,
  res: ServerResponse,
  operation: string,
  body: string,
  recorded: Recorded,
): void {
  const input = JSON.parse(body) as Record<string, unknown>;
  const queueUrl = String(input.QueueUrl);
  // The client sends to the queue URL's own host: a call arriving here for another host's queue is a
  // queue URL the test did not hand out.
  if (!queueUrl.startsWith(`http://${req.headers.host}/`)) {
    recorded.refused.push(`sqs ${operation} to a queue not served here: ${queueUrl}`);
    jsonError(res, 'application/x-amz-json-1.0', 'QueueDoesNotExist', queueUrl);
    return;
  }
  if (operation === 'SendMessage') {
    const problem = sqsMessageProblem(input);
    if (problem) {
      jsonError(res, 'application/x-amz-json-1.0', 'InvalidParameterValue', problem);
      return;
    }
    const messageId = enqueue(recorded, sentMessage(queueUrl, input));
    // The client checks the body's MD5 and refuses an answer without it.
    json(res, 'application/x-amz-json-1.0', {
      MessageId: messageId,
      MD5OfMessageBody: md5(String(input.MessageBody)),
    });
    return;
  }
  if (operation === 'SendMessageBatch') {
    const entries = (input.Entries as Record<string, unknown>[] | undefined) ?? [];
    const ids = entries.map((entry) => String(entry.Id));
    // SQS's batch checks: 1 to 10 entries with distinct ids, 256 KiB of bodies in all.
    const bytes = entries.reduce((sum, entry) => sum + Buffer.byteLength(String(entry.MessageBody ?? '')), 0);
    if (entries.length === 0 || entries.length > 10 || new Set(ids).size !== ids.length || bytes > 262_144) {
      jsonError(res, 'application/x-amz-json-1.0', 'InvalidParameterValue', 'batch of 1 to 10, ids distinct');
      return;
    }
    const successful: unknown[] = [];
    const failed: unknown[] = [];
    for (const entry of entries) {
      const problem = sqsMessageProblem(entry);
      if (problem) {
        failed.push({ Id: entry.Id, Code: 'InvalidParameterValue', SenderFault: true, Message: problem });
        continue;
      }
      successful.push({
        Id: entry.Id,
        MessageId: enqueue(recorded, sentMessage(queueUrl, entry)),
        MD5OfMessageBody: md5(String(entry.MessageBody)),
      });
    }
    json(res, 'application/x-amz-json-1.0', { Successful: successful, Failed: failed });
    return;
  }
  if (operation === 'ChangeMessageVisibility') {
    recorded.visibilityChanges.push({
      queueUrl,
      receiptHandle: String(input.ReceiptHandle),
      visibilityTimeout: Number(input.VisibilityTimeout),
    });
    json(res, 'application/x-amz-json-1.0', {});
    return;
  }
  const queue = recorded.queues.get(queueUrl) ?? [];
  if (operation === 'ReceiveMessage') {
    // The visible messages, oldest first, hidden for the visibility timeout asked; no long polling here.
    const now = Date.now();
    const max = Number(input.MaxNumberOfMessages ?? 1);
    const taken = queue.filter((message) => message.visibleAtMs <= now).slice(0, max);
    const messages = taken.map((message) => {
      message.receiveCount += 1;
      message.receiptHandle = randomUUID();
      message.visibleAtMs = now + Number(input.VisibilityTimeout ?? 30) * 1000;
      return {
        MessageId: message.messageId,
        ReceiptHandle: message.receiptHandle,
        Body: message.body,
        MD5OfBody: md5(message.body),
        Attributes: {
          SentTimestamp: String(message.sentAtMs),
          ApproximateReceiveCount: String(message.receiveCount),
        },
        ...(Object.keys(message.attributes).length > 0 ? { MessageAttributes: message.attributes } : {}),
      };
    });
    json(res, 'application/x-amz-json-1.0', messages.length > 0 ? { Messages: messages } : {});
    return;
  }
  if (operation === 'ChangeMessageVisibilityBatch' || operation === 'DeleteMessageBatch') {
    const entries =
      (input.Entries as { Id: string; ReceiptHandle: string; VisibilityTimeout?: number }[]) ?? [];
    const successful: { Id: string }[] = [];
    const failed: unknown[] = [];
    for (const entry of entries) {
      const index = queue.findIndex((message) => message.receiptHandle === entry.ReceiptHandle);
      const message = queue[index];
      if (!message) {
        failed.push({ Id: entry.Id, Code: 'ReceiptHandleIsInvalid', SenderFault: true });
        continue;
      }
      if (operation === 'DeleteMessageBatch') queue.splice(index, 1);
      else message.visibleAtMs = Date.now() + Number(entry.VisibilityTimeout ?? 0) * 1000;
      successful.push({ Id: entry.Id });
    }
    json(res, 'application/x-amz-json-1.0', { Successful: successful, Failed: failed });
    return;
  }
  if (operation === 'GetQueueAttributes') {
    const now = Date.now();
    const count = (test: (message: StoredSqsMessage) => boolean) => String(queue.filter(test).length);
    json(res, 'application/x-amz-json-1.0', {
      Attributes: {
        ApproximateNumberOfMessages: count((message) => message.visibleAtMs <= now),
        ApproximateNumberOfMessagesNotVisible: count(
          (message) => message.visibleAtMs > now && message.receiveCount > 0,
        ),
        ApproximateNumberOfMessagesDelayed: count(
          (message) => message.visibleAtMs > now && message.receiveCount === 0,
        ),
      },
    });
    return;
  }
  recorded.refused.push(`sqs ${operation}`);
  jsonError(res, 'application/x-amz-json-1.0', 'UnsupportedOperation', operation);
}

/** Records the message as sent and keeps it on its queue; its message id. */
function enqueue(recorded: Recorded, message: SentSqsMessage): string {
  recorded.sent.push(message);
  const now = Date.now();
  const stored: StoredSqsMessage = {
    ...message,
    messageId: randomUUID(),
    sentAtMs: now,
    visibleAtMs: now + (message.delaySeconds ?? 0) * 1000,
    receiveCount: 0,
    receiptHandle: undefined,
  };
  const queue = recorded.queues.get(message.queueUrl) ?? [];
  queue.push(stored);
  recorded.queues.set(message.queueUrl, queue);
  return stored.messageId;
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** Why SQS would refuse this message: a body of 1 byte to 256 KiB, a delay of 0 to 900 whole seconds. */
function sqsMessageProblem(input: Record<string, unknown>): string | undefined {
  const messageBody = String(input.MessageBody ?? '');
  const delay = input.DelaySeconds;
  if (messageBody === '' || Buffer.byteLength(messageBody) > 262_144) {
    return 'MessageBody must be 1 byte to 256 KiB';
  }
  if (
    delay !== undefined &&
    !(Number.isInteger(delay) && (delay as number) >= 0 && (delay as number) <= 900)
  ) {
    return 'DelaySeconds must be 0 to 900';
  }
  if (input.MessageGroupId !== undefined && !/^[\x21-\x7e]{1,128}$/.test(String(input.MessageGroupId))) {
    return 'MessageGroupId must be 1 to 128 printable characters';
  }
  return undefined;
}

function sentMessage(queueUrl: string, input: Record<string, unknown>): SentSqsMessage {
  return {
    queueUrl,
    body: String(input.MessageBody),
    delaySeconds: input.DelaySeconds as number | undefined,
    attributes: (input.MessageAttributes as Record<string, unknown> | undefined) ?? {},
    ...(input.MessageGroupId === undefined ? {} : { messageGroupId: String(input.MessageGroupId) }),
  };
}

// --- SNS (awsQuery) -------------------------------------------------------------------------------------

const SNS_NAMESPACE = 'http://sns.amazonaws.com/doc/2010-03-31/';

function answerSns(res: ServerResponse, params: URLSearchParams, recorded: Recorded): void {
  const action = params.get('Action') ?? '';
  const topicArn = params.get('TopicArn') ?? '';
  if (action === 'Publish') {
    const message = publishedFrom(params, '', topicArn);
    const problem = publishProblem(message);
    if (problem !== undefined) {
      snsError(res, 'InvalidParameter', problem);
      return;
    }
    recorded.published.push(message);
    xml(
      res,
      `<PublishResponse xmlns="${SNS_NAMESPACE}"><PublishResult><MessageId>${randomUUID()}</MessageId></PublishResult>${metadata()}</PublishResponse>`,
    );
    return;
  }
  if (action === 'PublishBatch') {
    const entries = memberPrefixes(params, 'PublishBatchRequestEntries.member.').map((prefix) => ({
      id: params.get(`${prefix}Id`) ?? '',
      message: publishedFrom(params, prefix, topicArn),
    }));
    const batchProblem = publishBatchProblem(entries);
    if (batchProblem !== undefined) {
      snsError(res, batchProblem.code, batchProblem.message);
      return;
    }
    const successful: string[] = [];
    const failed: string[] = [];
    for (const { id, message } of entries) {
      const problem = publishProblem(message);
      if (problem === undefined) {
        recorded.published.push(message);
        successful.push(`<member><Id>${escapeXml(id)}</Id><MessageId>${randomUUID()}</MessageId></member>`);
      } else {
        failed.push(
          `<member><Id>${escapeXml(id)}</Id><Code>InvalidParameter</Code><Message>${escapeXml(problem)}</Message><SenderFault>true</SenderFault></member>`,
        );
      }
    }
    xml(
      res,
      `<PublishBatchResponse xmlns="${SNS_NAMESPACE}"><PublishBatchResult><Successful>${successful.join('')}</Successful><Failed>${failed.join('')}</Failed></PublishBatchResult>${metadata()}</PublishBatchResponse>`,
    );
    return;
  }
  recorded.refused.push(`sns ${action}`);
  snsError(res, 'InvalidAction', `${action} is not served by this fake`);
}

/** SNS's own checks of one message (Publish API reference), or undefined when it would take it. */
function publishProblem(message: PublishedMessage): string | undefined {
  if (message.message === '') return 'Message must not be empty';
  if (message.messageStructure === 'json') {
    let bodies: unknown;
    try {
      bodies = JSON.parse(message.message);
    } catch {
      return 'Message Structure - JSON message body failed to parse';
    }
    if (typeof (bodies as Record<string, unknown> | null)?.default !== 'string') {
      return 'Message Structure - No default entry in JSON message body';
    }
  } else if (message.messageStructure !== undefined) {
    return `MessageStructure must be json, not ${message.messageStructure}`;
  }
  // Printable ASCII, beginning with a letter, number or punctuation, no line break, under 100 characters.
  if (message.subject !== undefined && !/^[!-~][ -~]{0,98}$/.test(message.subject)) {
    return 'Subject must be ASCII text that begins with a letter, number, or punctuation mark, without line breaks, under 100 characters';
  }
  const attributes = Object.entries(message.attributes);
  if (attributes.length > 10) return 'Number of message attributes [n] exceeds the allowed maximum [10]';
  for (const [name, value] of attributes) {
    if (!['String', 'Number', 'Binary', 'String.Array'].includes(value.DataType?.split('.')[0] ?? '')) {
      return `The message attribute '${name}' has an invalid message attribute type`;
    }
    if (value.DataType !== 'Binary' && !value.StringValue) {
      return `The message attribute '${name}' must contain non-empty message attribute value`;
    }
  }
  return undefined;
}

function publishBatchProblem(
  entries: readonly { id: string; message: PublishedMessage }[],
): { code: string; message: string } | undefined {
  if (entries.length === 0)
    return { code: 'EmptyBatchRequest', message: 'The batch request does not contain any entries' };
  if (entries.length > 10) {
    return {
      code: 'TooManyEntriesInBatchRequest',
      message: 'The batch request contains more entries than permissible',
    };
  }
  const ids = entries.map(({ id }) => id);
  if (ids.some((id) => !/^[A-Za-z0-9_-]{1,80}$/.test(id))) {
    return {
      code: 'InvalidBatchEntryId',
      message: 'A batch entry id can only contain alphanumeric characters, hyphens and underscores',
    };
  }
  if (new Set(ids).size !== ids.length) {
    return {
      code: 'BatchEntryIdsNotDistinct',
      message: 'Two or more batch entries in the request have the same Id',
    };
  }
  let bytes = 0;
  for (const { message } of entries) {
    bytes += Buffer.byteLength(message.message) + Buffer.byteLength(message.subject ?? '');
    for (const [name, value] of Object.entries(message.attributes)) {
      bytes +=
        Buffer.byteLength(name) +
        Buffer.byteLength(value.DataType ?? '') +
        Buffer.byteLength(value.StringValue ?? '');
    }
  }
  if (bytes > 262_144) {
    return {
      code: 'BatchRequestTooLong',
      message: 'The length of all the messages put together is more than the limit',
    };
  }
  return undefined;
}

function snsError(res: ServerResponse, code: string, message: string): void {
  res.writeHead(400, { 'content-type': 'text/xml' });
  res.end(
    `<ErrorResponse xmlns="${SNS_NAMESPACE}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  );
}

/** One message of a Publish (prefix '') or of a PublishBatch entry (`PublishBatchRequestEntries.member.N.`). */
function publishedFrom(params: URLSearchParams, prefix: string, topicArn: string): PublishedMessage {
  const attributes: Record<string, MessageAttributeValue> = {};
  for (const entry of memberPrefixes(params, `${prefix}MessageAttributes.entry.`)) {
    const name = params.get(`${entry}Name`) ?? '';
    const value: MessageAttributeValue = { DataType: params.get(`${entry}Value.DataType`) ?? '' };
    const stringValue = params.get(`${entry}Value.StringValue`);
    if (stringValue !== null) value.StringValue = stringValue;
    attributes[name] = value;
  }
  return {
    topicArn,
    message: params.get(`${prefix}Message`) ?? '',
    messageStructure: params.get(`${prefix}MessageStructure`) ?? undefined,
    subject: params.get(`${prefix}Subject`) ?? undefined,
    attributes,
  };
}

/** `<list>1.`, `<list>2.`, … for as long as the query holds keys under them. */
function memberPrefixes(params: URLSearchParams, list: string): string[] {
  const prefixes: string[] = [];
  const keys = [...params.keys()];
  for (let index = 1; keys.some((key) => key.startsWith(`${list}${index}.`)); index += 1) {
    prefixes.push(`${list}${index}.`);
  }
  return prefixes;
}

// --- answers ------------------------------------------------------------------------------------------

function json(res: ServerResponse, contentType: string, body: unknown): void {
  res.writeHead(200, { 'content-type': contentType, 'x-amzn-requestid': randomUUID() });
  res.end(JSON.stringify(body));
}

function jsonError(res: ServerResponse, contentType: string, type: string, message: string): void {
  res.writeHead(400, { 'content-type': contentType, 'x-amzn-errortype': type });
  res.end(JSON.stringify({ __type: type, message }));
}

function xml(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/xml' });
  res.end(body);
}

function metadata(): string {
  return `<ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
