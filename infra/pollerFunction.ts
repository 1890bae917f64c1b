// The poller Lambda: one scheduled invocation polls one organization (functions/poller/handler.ts) and
// records snapshots, events and bookkeeping in the state table.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { CfnTable, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { generatedNameLength } from './lambdaEnvironmentSize.js';
import type { NotifierConfig } from './notifierConfig.js';
import { NotifierFunction } from './notifierFunction.js';
import { SERVICE_NAMES } from './notifierMetrics.js';
import type { NotifierSecrets } from './notifierSecrets.js';

/**
 * Under the 5-minute lease a cycle holds (pollOrganization's default): a run that Lambda cuts short cannot
 * release its lease, and must never still be running when the lease expires and another run takes it.
 */
export const POLLER_TIMEOUT = Duration.minutes(4);

/** DynamoDB table names are at most 255 characters. */
const TABLE_NAME_MAXIMUM = 255;

export interface PollerFunctionProps {
  /** Its API settings and organizations are compiled into the bundle. */
  readonly config: NotifierConfig;
  /** The state table: snapshots, events, poll state, leases, request budgets. */
  readonly table: Table;
  /** The poller may read the organizations' token secrets. */
  readonly secrets: NotifierSecrets;
  /**
   * The cycle holds every snapshot of the organization in memory (100,000 add about 110 MB,
   * `npm run bench`), and Lambda's CPU share grows with memory.
   * @default 512
   */
  readonly memorySize?: number;
  /** @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

export class PollerFunction extends NotifierFunction {
  constructor(scope: Construct, id: string, props: PollerFunctionProps) {
    const cfnTable = props.table.node.defaultChild as CfnTable;
    super(scope, id, {
      handlerModule: 'poller/handler.ts',
      serviceName: SERVICE_NAMES.poller,
      description: 'meal-order-notifier: polls one organization per invocation and records its order events',
      memorySize: props.memorySize ?? 512,
      timeout: POLLER_TIMEOUT,
      ...(props.logRetention === undefined ? {} : { logRetention: props.logRetention }),
      ...(props.logRemovalPolicy === undefined ? {} : { logRemovalPolicy: props.logRemovalPolicy }),
      config: props.config.pollerJson(),
      environment: {
        STATE_TABLE_NAME: props.table.tableName,
        SECRETS_PREFIX: props.secrets.prefix,
      },
      environmentStandIns: {
        STATE_TABLE_NAME: 'n'.repeat(generatedNameLength(cfnTable, TABLE_NAME_MAXIMUM)),
      },
    });
    // Snapshots are one Query; a commit is a TransactWriteItems of Puts (authorized as PutItem); the budget
    // log is GetItem + UpdateItem; leases are PutItem + DeleteItem; poll state is GetItem + PutItem.
    props.table.grant(
      this,
      'dynamodb:Query',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
    );
    props.secrets.grantRead(
      this,
      props.config.parsed.organizations.map((organization) => organization.token),
    );
  }
}
