// What SNS puts on a subscription's dead-letter queue, read back. SNS adds no attribute of its own (no
// error code, no reason, no subscription ARN); it sends the message as it would have delivered it:
// - to a subscription with raw message delivery (the subscriber queues), the published body as it is,
//   with the published message attributes as SQS message attributes: nothing names the subscription;
// - to any other (e-mail), the JSON notification SNS would have sent: Type, MessageId, TopicArn, Subject,
//   Message, Timestamp, the signature fields, MessageAttributes, and an UnsubscribeURL whose
//   SubscriptionArn parameter names the subscription it was for.
// (AWS, "Amazon SNS dead-letter queues"; LocalStack's AWS-validated snapshots of the same.)

/** A notification envelope: the subscription it was for, and what it carried. */
export interface SnsEnvelopeDeadLetter {
  form: 'envelope';
  subscriptionArn: string | undefined;
  topicArn: string | undefined;
  subject: string | undefined;
  message: string;
  /** The published message attributes, by name: a String's value, or a String.Array's values. */
  attributes: Record<string, string>;
  /** When SNS accepted the publish (RFC 3339). */
  publishedAt: string | undefined;
}

/** A raw delivery: the published body itself. */
export interface SnsRawDeadLetter {
  form: 'raw';
  body: string;
}

export type SnsDeadLetter = SnsEnvelopeDeadLetter | SnsRawDeadLetter;

/** Which of the two forms `body` is. */
export function readSnsDeadLetter(body: string): SnsDeadLetter {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { form: 'raw', body };
  }
  if (!isEnvelope(parsed)) return { form: 'raw', body };
  const text = (name: string) => (typeof parsed[name] === 'string' ? (parsed[name] as string) : undefined);
  return {
    form: 'envelope',
    subscriptionArn: subscriptionArnOf(text('UnsubscribeURL')),
    topicArn: text('TopicArn'),
    subject: text('Subject'),
    message: text('Message') ?? '',
    attributes: attributesOf(parsed.MessageAttributes),
    publishedAt: text('Timestamp'),
  };
}

function isEnvelope(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return record.Type === 'Notification' && typeof record.TopicArn === 'string' && 'Message' in record;
}

function subscriptionArnOf(unsubscribeUrl: string | undefined): string | undefined {
  if (unsubscribeUrl === undefined) return undefined;
  try {
    return new URL(unsubscribeUrl).searchParams.get('SubscriptionArn') ?? undefined;
  } catch {
    return undefined;
  }
}

function attributesOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  const attributes: Record<string, string> = {};
  for (const [name, attribute] of Object.entries(value as Record<string, unknown>)) {
    const attributeValue = (attribute as { Value?: unknown } | null)?.Value;
    if (typeof attributeValue === 'string') attributes[name] = attributeValue;
  }
  return attributes;
}
