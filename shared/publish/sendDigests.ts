// One run of the digest schedule: the shared use case claims each ended period's digest in the state
// table (queueDueDigests over DynamoDigestStore), then each claimed digest is published to the event topic
// for its one subscriber (the `digest` attribute its subscriptions filter on) and marked sent. A digest
// whose publish fails stays claimed but unsent, and a later run takes it again once the claim is stale.
import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import type { Config } from '../config/configSchema.js';
import { digestMessageAttributes } from '../contracts/messageAttributes.js';
import { queueDueDigests } from '../delivery/digest/queueDueDigests.js';
import { snsDigestMessageBody, snsSubject } from '../delivery/email/snsEmailMessage.js';
import type { DigestEvent } from '../events/digestEvent.js';
import type { DynamoDigestStore } from '../store/dynamo/dynamoDigestStore.js';

export interface DigestRunDependencies {
  config: Config;
  store: Pick<DynamoDigestStore, 'listEvents' | 'recordDigest' | 'markDigestSent'>;
  sns: SNSClient;
  topicArn: string;
  clock: () => number;
}

export interface DigestRunReport {
  /** Periods whose digest was looked at (sent now, sent before, or empty). */
  examined: number;
  sent: { digestId: string; subscriberId: string; organizationId: string; events: number }[];
  failed: { digestId: string; subscriberId: string; organizationId: string; reason: string }[];
}

export async function sendDigests(deps: DigestRunDependencies): Promise<DigestRunReport> {
  const result = await queueDueDigests({
    subscribers: deps.config.subscribers,
    organizations: deps.config.organizations,
    store: deps.store,
    nowMs: deps.clock(),
  });
  const report: DigestRunReport = { examined: result.examined.length, sent: [], failed: [] };
  for (const digest of result.queued) {
    const about = {
      digestId: digest.id,
      subscriberId: digest.data.subscriber_id,
      organizationId: digest.data.organization.id,
    };
    try {
      await deps.sns.send(new PublishCommand(publishInput(deps.topicArn, digest)));
      await deps.store.markDigestSent(about.organizationId, digest.id);
      report.sent.push({ ...about, events: digest.data.events.length });
    } catch (error) {
      report.failed.push({
        ...about,
        reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
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
