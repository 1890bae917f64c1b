// The board's message map in the state table on DynamoDB Local, held to the conformance suite the
// in-memory and SQLite maps run: claims by conditional put, saves only over the version read.
import { DynamoBoardMessages } from '../../../shared/store/dynamo/dynamoBoardMessages.js';
import { describeBoardMessagesConformance } from '../../support/boardMessagesConformance.js';
import { createLocalStateTable } from '../../support/dynamoLocal.js';

describeBoardMessagesConformance('DynamoBoardMessages', async () => {
  const table = await createLocalStateTable();
  return {
    messages: new DynamoBoardMessages({ client: table.client, tableName: table.tableName }),
    cleanup: () => table.drop(),
  };
});
