// The dead-letter queue of every SNS subscription of the stack: what SNS could not deliver (a queue policy
// or key policy that refuses it, a deleted queue, retries spent) lands here instead of being dropped. One queue serves every subscription: `attach` gives a subscription its redrive
// policy and lets its topic send here. What SNS puts on it, and what that does and does not say about the
// subscription, is in shared/contracts/snsDeadLetter.ts.
//
// SQS-managed encryption (secureQueue), so SNS needs no key policy to write; one queue policy statement,
// for all the topics attached, so the policy does not grow with the subscriptions (it is capped at 8 KB).
import { Duration, Lazy, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnSubscription, Subscription } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { secureQueue } from './secureQueue.js';

export class SubscriptionDeadLetters extends Construct {
  /** The queue every attached subscription dead-letters to. */
  readonly queue: Queue;
  /** The ARNs of the topics whose subscriptions are attached, once each. */
  readonly #topicArns: string[] = [];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // As long as SQS keeps anything: a message here is an event someone did not get.
    this.queue = secureQueue(this, 'Queue', { retentionPeriod: Duration.days(14) });
    this.queue.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowTheStacksTopicsToDeadLetter',
        principals: [new ServicePrincipal('sns.amazonaws.com')],
        actions: ['sqs:SendMessage'],
        resources: [this.queue.queueArn],
        conditions: {
          ArnEquals: { 'aws:SourceArn': Lazy.list({ produce: () => this.#topicArns }) },
        },
      }),
    );
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself a dead-letter queue: the redrive policy of every SNS subscription of the stack points at it, which the rule (looking only at queues' and functions' dead-letter settings) does not recognize; nothing consumes it.",
    });
  }

  /** Gives the subscription a redrive policy to this queue, and lets its topic send to it. */
  attach<S extends Subscription>(subscription: S): S {
    const cfn = subscription.node.defaultChild as CfnSubscription;
    cfn.redrivePolicy = { deadLetterTargetArn: this.queue.queueArn };
    const topicArn = cfn.topicArn;
    if (!this.#topicArns.includes(topicArn)) this.#topicArns.push(topicArn);
    // CloudFormation creates a subscription with its redrive policy; SNS refuses one to a queue it may not
    // write to, so the policy comes first.
    subscription.node.addDependency(this.queue);
    return subscription;
  }
}
