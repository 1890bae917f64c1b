// The slack-delivery Lambda: each Slack subscriber's SQS queue → a Block Kit message on its incoming
// webhook → delete, retry later on the schedule, or dead-letter. Environment contract:
// deliveryQueueContract.ts.
import { createSqsDeliveryHandler } from '../shared/sqsDeliveryHandler.js';
import { slackChannel } from './slackChannel.js';

export const handler = createSqsDeliveryHandler('slack-delivery', slackChannel);
