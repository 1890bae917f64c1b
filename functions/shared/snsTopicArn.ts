// The check of an SNS topic ARN in a function's environment (TOPIC_ARN of the publisher and the digest
// function), so both refuse the same values with the same words.
import * as z from 'zod';

const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_.-]{1,256}$/;

export const SnsTopicArnSchema = z.string().regex(SNS_TOPIC_ARN, {
  error: 'must be an SNS topic ARN, arn:aws:sns:<region>:<account>:<topic>',
});
