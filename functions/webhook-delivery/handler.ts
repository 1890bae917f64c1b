// The webhook-delivery Lambda: each webhook subscriber's SQS queue → a signed POST (Standard Webhooks) →
// delete, retry later on the schedule, or dead-letter. Environment contract: deliveryQueueContract.ts.
import { buildWebhookSender } from '../../shared/delivery/webhook/buildWebhookSender.js';
import { createSqsDeliveryHandler } from '../shared/sqsDeliveryHandler.js';

export const handler = createSqsDeliveryHandler('webhook-delivery', 'webhook', buildWebhookSender);
