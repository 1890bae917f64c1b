// The in-memory message map holds to the conformance suite the SQLite adapter runs.
import { InMemoryBoardMessages } from '../../../../shared/delivery/slack/board/inMemoryBoardMessages.js';
import { describeBoardMessagesConformance } from '../../../support/boardMessagesConformance.js';

describeBoardMessagesConformance('InMemoryBoardMessages', async () => ({
  messages: new InMemoryBoardMessages(),
  cleanup: async () => {},
}));
