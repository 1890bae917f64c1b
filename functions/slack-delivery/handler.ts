// The slack-delivery Lambda: each Slack subscriber's SQS queue → a Block Kit message on its incoming
// webhook → delete, retry later on the schedule, or dead-letter. Environment contract:
// deliveryQueueContract.ts.
import { buildSlackSender } from '../../shared/delivery/slack/buildSlackSender.js';
import { createSqsDeliveryHandler } from '../shared/sqsDeliveryHandler.js';

export const handler = createSqsDeliveryHandler('slack-delivery', 'slack', buildSlackSender);
