// `meal-notifier status --stack`: the same report as locally, read from a deployed stack. Organizations
// come from the state table (their poll state, snapshots and recent events), the deliveries queued on
// each channel's shared queue from its depth (once per channel: SQS cannot tell whose they are), each
// subscriber's dead letters by the attribute naming it, disabled subscribers from the table, and what the publisher
// gave up on from the depth of its failure queue. A queue that does not answer leaves a gap and a problem
// line, not a failed command: the table's part is still worth seeing.
import type { Config } from '../config/configSchema.js';
import { STACK_OUTPUT_KEYS } from '../contracts/stackOutputKeys.js';
import type { SubscriberStatus as SubscriberStatusPort } from '../delivery/subscriberStatus.js';
import type { DeliveryQueues } from './deliveryQueues.js';
import type { PublisherFailureQueue } from './publisherFailureQueue.js';
import {
  type ChannelQueueStatus,
  type OrganizationStatus,
  organizationStatus,
  type StackStatusReport,
  type StatusStore,
  type SubscriberStatus,
} from './statusReport.js';

export interface StackStatusSources {
  stackName: string;
  tableName: string;
  /** False for a stack deployed with polling off. */
  pollingEnabled: boolean;
  store: StatusStore;
  subscriberStatus: Pick<SubscriberStatusPort, 'disabled'>;
  queues: DeliveryQueues;
  /** Undefined when the stack's outputs do not name it. */
  publisherFailures: Pick<PublisherFailureQueue, 'depth'> | undefined;
}

export async function collectStackStatus(
  config: Config,
  sources: StackStatusSources,
  nowMs: number,
): Promise<StackStatusReport> {
  const problems: string[] = [];
  const organizations: OrganizationStatus[] = [];
  for (const organization of config.organizations) {
    organizations.push(await organizationStatus(organization, sources.store, nowMs));
  }
  const subscribers: SubscriberStatus[] = [];
  const channels: ChannelQueueStatus[] = [];
  for (const subscriber of config.subscribers) {
    const disabled = await sources.subscriberStatus.disabled(subscriber.id);
    const status: SubscriberStatus = {
      id: subscriber.id,
      type: subscriber.type,
      enabledInConfig: subscriber.enabled,
      disabled: disabled
        ? { since: new Date(disabled.disabledAt).toISOString(), reason: disabled.reason }
        : null,
      queued: null,
      dead: null,
    };
    subscribers.push(status);
    // SNS e-mails the e-mail subscribers itself: there is no queue to count.
    if (subscriber.type === 'email') continue;
    if (!sources.queues.knows(subscriber.id)) {
      problems.push(
        `stack ${sources.stackName} has no queue outputs for subscriber ${subscriber.id}: deploy the stack with this config`,
      );
      continue;
    }
    status.queuedOnChannel = subscriber.type;
    let channel = channels.find((candidate) => candidate.channel === subscriber.type);
    if (channel === undefined) {
      channel = { channel: subscriber.type, subscribers: [], queued: null };
      channels.push(channel);
      try {
        channel.queued = await sources.queues.channelQueued(subscriber.id);
      } catch (error) {
        problems.push(describe(error));
      }
    }
    channel.subscribers.push(subscriber.id);
    try {
      status.dead = await sources.queues.deadCount(subscriber.id);
    } catch (error) {
      problems.push(describe(error));
    }
  }
  let publisherFailures: number | null = null;
  if (sources.publisherFailures === undefined) {
    problems.push(`stack ${sources.stackName} has no output ${STACK_OUTPUT_KEYS.publisherFailureQueue}`);
  } else {
    try {
      publisherFailures = await sources.publisherFailures.depth();
    } catch (error) {
      problems.push(describe(error));
    }
  }
  return {
    stack: sources.stackName,
    tableName: sources.tableName,
    pollingEnabled: sources.pollingEnabled,
    organizations,
    subscribers,
    channels,
    publisherFailures,
    problems,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
