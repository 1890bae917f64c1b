// The webhook-delivery Lambda: each webhook subscriber's SQS queue → a signed POST (Standard Webhooks) →
// delete, retry later on the schedule, or dead-letter. Environment contract: deliveryQueueContract.ts.
import { createSqsDeliveryHandler } from '../shared/sqsDeliveryHandler.js';
import { webhookChannel } from './webhookChannel.js';

export const handler = createSqsDeliveryHandler('webhook-delivery', webhookChannel);
