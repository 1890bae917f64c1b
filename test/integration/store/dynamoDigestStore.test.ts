// The AWS digest store against DynamoDB Local: the suite every DigestStore adapter runs (a fresh table per
// test), events logged by the state store on the same table, as the poller logs them.
import { DynamoDigestStore } from '../../../shared/store/dynamo/dynamoDigestStore.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import { describeDigestStoreConformance } from '../../support/digestStoreConformance.js';
import { createLocalStateTable } from '../../support/dynamoLocal.js';

describeDigestStoreConformance('DynamoDigestStore', async ({ clock }) => {
  const table = await createLocalStateTable();
  const options = { client: table.client, tableName: table.tableName, clock };
  return {
    digests: new DynamoDigestStore(options),
    store: new DynamoStateStore(options),
    cleanup: table.drop,
  };
});
