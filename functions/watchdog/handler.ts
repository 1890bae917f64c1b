// The watchdog Lambda, invoked once a minute by the stack's one schedule for every organization
// (shared/poll/watchChains.ts): restarts each lost chain of ticks with a tick due now, publishes how many
// organizations are overdue (OrganizationsOverdue, no organization dimension: one metric, one alarm) and how
// many have their token rejected (OrganizationsTokenRejected, likewise), and logs each with why, so the
// alarm's reader finds the names in this log; when the set of overdue organizations changes, it sends the
// alarm topic a notice naming them and why (shared/poll/overdueNotice.ts).
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import {
  METRICS_NAMESPACE,
  ORGANIZATIONS_OVERDUE_METRIC,
  ORGANIZATIONS_TOKEN_REJECTED_METRIC,
  SERVICE_NAMES,
} from '../../shared/contracts/customMetrics.js';
import { TOKEN_REJECTED } from '../../shared/contracts/tokenRejected.js';
import { noticeOverdueChange } from '../../shared/poll/overdueNotice.js';
import { watchChains } from '../../shared/poll/watchChains.js';
import { DynamoOverdueMemory } from '../../shared/store/dynamo/dynamoOverdueMemory.js';
import { DynamoStateStore } from '../../shared/store/dynamo/dynamoStateStore.js';
import { addInvocationContext, type InvocationContext } from '../shared/invocationContext.js';
import { TickQueue } from '../shared/tickQueue.js';
import { parseWatchdogEnvironment } from './environment.js';

const environment = parseWatchdogEnvironment(process.env);
const logger = new Logger();
const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAMES.watchdog });
const dynamo = new DynamoDBClient({});
const store = new DynamoStateStore({
  client: dynamo,
  tableName: environment.tableName,
  warn: (line) => logger.warn(line),
});
const ticks = new TickQueue(environment.tickQueueUrl, new SQSClient({}));
const overdueMemory = new DynamoOverdueMemory({ client: dynamo, tableName: environment.tableName });
const sns = new SNSClient({});
const names = new Map(environment.config.organizations.map(({ id, name }) => [id, name]));

export interface WatchdogResult {
  checked: number;
  restarted: number;
  overdue: string[];
}

/** Throws only what stops the whole run (the watchdog-errors alarm); one organization's trouble is logged. */
export async function handler(_event: unknown, context: InvocationContext): Promise<WatchdogResult> {
  addInvocationContext(logger, context);
  const report = await watchChains(environment.config.organizations, {
    store,
    restart: (organizationId, dueAt) => ticks.send({ organizationId, dueAt }, dueAt),
    clock: Date.now,
  });
  for (const { organization, why } of report.restarted) {
    logger.info('poll chain restarted', { organization, reason: why });
  }
  for (const { organization, why, error } of report.restartFailed) {
    logger.error('poll chain not restarted; the next run tries again', { organization, reason: why, error });
  }
  for (const { organization, error } of report.unreadable) {
    logger.error('poll state not read', { organization, error });
  }
  // One line per overdue organization: what the "organizations not polled" alarm's description points to.
  for (const { organization, name, problem } of report.overdue) {
    logger.warn('organization overdue', { organization, name, reason: problem });
  }
  for (const { organization, name } of report.tokenRejected) {
    logger.warn('organization token rejected', { organization, name, reason: TOKEN_REJECTED });
  }
  const overdue = report.overdue.map(({ organization }) => organization);
  logger.info('organizations watched', {
    checked: report.checked,
    restarted: report.restarted.length,
    overdue: overdue.length,
    tokenRejected: report.tokenRejected.length,
  });
  metrics.addMetric(ORGANIZATIONS_OVERDUE_METRIC, MetricUnit.Count, overdue.length);
  metrics.addMetric(ORGANIZATIONS_TOKEN_REJECTED_METRIC, MetricUnit.Count, report.tokenRejected.length);
  metrics.publishStoredMetrics();
  // After the metrics: a notice that cannot be sent fails the run (the watchdog-errors alarm) and is sent
  // by the next one, but the count that the alarm reads is out already.
  const notice = await noticeOverdueChange(report.overdue, names, {
    memory: overdueMemory,
    notify: async ({ subject, message }) => {
      await sns.send(
        new PublishCommand({ TopicArn: environment.alarmTopicArn, Subject: subject, Message: message }),
      );
    },
  });
  if (notice !== undefined) logger.info('overdue notice sent', { subject: notice.subject });
  return { checked: report.checked, restarted: report.restarted.length, overdue };
}
