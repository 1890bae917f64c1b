// One run of the digest schedule: the shared use case claims each ended period's digest in the state
// table (queueDueDigests over DynamoDigestStore), split first into parts that fit one SNS publish and one
// DynamoDB item, then each claimed part is published to the event topic for its one subscriber (the
// `digest` attribute its subscriptions filter on) and marked sent. Each claim and each publish stands
// alone: one that fails is reported and the rest still go. A part whose publish fails stays claimed but
// unsent, and a later run takes it again once the claim is stale; one whose claim failed is claimed again
// by the next run.
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { Config } from '../config/configSchema.js';
import { digestMessageAttributes } from '../contracts/messageAttributes.js';
import {
  type DigestFailure,
  partLabel,
  queueDueDigests,
  reasonOf,
} from '../delivery/digest/queueDueDigests.js';
import type { DigestSizeLimit } from '../delivery/digest/splitDigest.js';
import { snsDigestMessageBody, snsSubject } from '../delivery/email/snsEmailMessage.js';
import type { DigestEvent } from '../events/digestEvent.js';
import { DIGEST_CLAIM_ITEM_LIMIT, type DynamoDigestStore } from '../store/dynamo/dynamoDigestStore.js';
import { entryBytes } from './publishEntries.js';

/** SNS's most bytes in one Publish, message and attributes together (256 KiB). */
export const SNS_PUBLISH_MAX_BYTES = 262_144;

/** What a digest message must fit to be published: counted as SNS counts it, and the subject with it. */
export const DIGEST_PUBLISH_LIMIT: DigestSizeLimit = {
  name: 'SNS message',
  maxBytes: SNS_PUBLISH_MAX_BYTES,
  sizeOf: (message) => entryBytes(publishInput('', message)),
};

/** Every limit a digest message meets on AWS. */
export const AWS_DIGEST_LIMITS: readonly DigestSizeLimit[] = [DIGEST_PUBLISH_LIMIT, DIGEST_CLAIM_ITEM_LIMIT];

export interface DigestRunDependencies {
  config: Config;
  store: Pick<DynamoDigestStore, 'listEvents' | 'recordDigest' | 'markDigestSent'>;
  sns: SNSClient;
  topicArn: string;
  clock: () => number;
}

interface DigestAbout {
  /** The id of the message claimed and published: the digest's, or its part's. */
  digestId?: string;
  subscriberId: string;
  organizationId: string;
  /** "part 2 of 4", when the digest was split. */
  part?: string;
}

export interface DigestRunReport {
  /** Periods whose digest was looked at (sent now, sent before, or empty). */
  examined: number;
  sent: (DigestAbout & { digestId: string; events: number; bytes: number })[];
  failed: (DigestAbout & { stage: DigestFailure['stage'] | 'publish'; reason: string })[];
}

export async function sendDigests(deps: DigestRunDependencies): Promise<DigestRunReport> {
  const result = await queueDueDigests({
    subscribers: deps.config.subscribers,
    organizations: deps.config.organizations,
    store: deps.store,
    nowMs: deps.clock(),
    limits: AWS_DIGEST_LIMITS,
  });
  const report: DigestRunReport = {
    examined: result.examined.length,
    sent: [],
    failed: result.failed.map(({ periodDigestIds: _, ...failure }) => failure),
  };
  for (const digest of result.queued) {
    const about = {
      digestId: digest.id,
      subscriberId: digest.data.subscriber_id,
      organizationId: digest.data.organization.id,
      ...partLabel(digest),
    };
    try {
      const input = publishInput(deps.topicArn, digest);
      await deps.sns.send(new PublishCommand(input));
      await deps.store.markDigestSent(about.organizationId, digest.id);
      report.sent.push({ ...about, events: digest.data.events.length, bytes: entryBytes(input) });
    } catch (error) {
      report.failed.push({
        ...about,
        stage: 'publish',
        reason: reasonOf(error),
      });
    }
  }
  return report;
}

/** The digest as one SNS publish: a body per protocol, an SNS-safe subject, the attributes policies read. */
export function publishInput(topicArn: string, digest: DigestEvent) {
  return {
    TopicArn: topicArn,
    Message: snsDigestMessageBody(digest),
    MessageStructure: 'json',
    Subject: snsSubject(digest),
    MessageAttributes: digestMessageAttributes(digest),
  };
}
