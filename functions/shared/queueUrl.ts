// SQS calls name a queue by URL, while Lambda's SQS records name their queue by ARN (`eventSourceARN`).
import { InvalidQueueArnError } from '../../shared/delivery/sqs/errors.js';

/** `arn:aws:sqs:eu-west-1:123456789012:q` → `https://sqs.eu-west-1.amazonaws.com/123456789012/q`. */
export function queueUrlFromArn(arn: string): string {
  const [prefix, partition, service, region, account, name] = arn.split(':');
  if (prefix !== 'arn' || service !== 'sqs' || !partition || !region || !account || !name) {
    throw new InvalidQueueArnError(arn);
  }
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}
