// The state table (snapshots, the event log that is the delivery outbox, poll state, leases, request
// budgets, disabled subscribers), built from the same definition as the DynamoDB adapter and its tests, so
// the keys, TTL attribute and stream view cannot drift apart.
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { stateTableDefinition } from '../shared/contracts/stateTableDefinition.js';

const ATTRIBUTE_TYPES = { S: AttributeType.STRING } as const;
const STREAM_VIEW_TYPES = { NEW_IMAGE: StreamViewType.NEW_IMAGE } as const;
const BILLING_MODES = { PAY_PER_REQUEST: BillingMode.PAY_PER_REQUEST } as const;

export interface StateTableProps {
  /**
   * What `cdk destroy` does with the table. Kept by default: it holds the snapshots that make the next
   * cycle a diff rather than a silent baseline, and the disabled-subscriber records; but not when the
   * deployment that created it fails and rolls back, since it holds nothing yet. Only RETAIN also turns
   * deletion protection on: a protected table would make that rollback fail. Without it, deleting the
   * table by hand still leaves the backup DynamoDB takes of a table with point-in-time recovery.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
   */
  readonly removalPolicy?: RemovalPolicy;
}

export class StateTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: StateTableProps = {}) {
    super(scope, id);
    const definition = stateTableDefinition;
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
    this.table = new Table(this, 'Table', {
      partitionKey: {
        name: definition.partitionKey.name,
        type: ATTRIBUTE_TYPES[definition.partitionKey.type],
      },
      sortKey: { name: definition.sortKey.name, type: ATTRIBUTE_TYPES[definition.sortKey.type] },
      // On-demand: a poll cycle is a burst of small writes once a minute per organization, idle between.
      billingMode: BILLING_MODES[definition.billingMode],
      timeToLiveAttribute: definition.timeToLiveAttribute,
      // The publisher reads inserted event items from it.
      stream: STREAM_VIEW_TYPES[definition.streamViewType],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: removalPolicy === RemovalPolicy.RETAIN,
      removalPolicy,
    });
  }
}
