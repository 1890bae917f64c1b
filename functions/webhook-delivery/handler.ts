// The webhook-delivery Lambda: each webhook subscriber's SQS queue → a signed POST (Standard Webhooks) →
// delete, retry later on the schedule, or dead-letter. Environment contract: deliveryQueueContract.ts.
import type { WebhookSubscriber } from '../../shared/config/configSchema.js';
import { buildWebhookSender } from '../../shared/delivery/webhook/buildWebhookSender.js';
import { createSqsDeliveryHandler } from '../shared/sqsDeliveryHandler.js';

export const handler = createSqsDeliveryHandler<WebhookSubscriber>(
  'webhook-delivery',
  'webhook',
  buildWebhookSender,
);
