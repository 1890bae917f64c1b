// A Slack subscriber's sender from its resolved secret: the incoming-webhook sender for a `webhookUrl`
// (a URL without a scheme is refused by the sender, naming the secret that holds it: @throws
// SlackWebhookUrlError), the kitchen's board for a Slack app's `botToken`, over the Web API client and the
// message map the runtime gives (tuning.boardMessages; in memory when it gives none, as for check-config).
import { catchUpAfterMs } from '../../config/catchUpAfter.js';
import { DEFAULT_SLACK_API_URL, type SlackSubscriber } from '../../config/configSchema.js';
import type { ClosableSender } from '../deliveryOutcome.js';
import { SlackBotTokenError } from '../errors.js';
import type { HighlightWordsOf } from '../highlightWordsOf.js';
import { commonSenderOptions, type SenderTuning } from '../senderTuning.js';
import { BoardSender } from './board/boardSender.js';
import { InMemoryBoardMessages } from './board/inMemoryBoardMessages.js';
import { SlackSender } from './slackSender.js';
import { SlackWebApiClient } from './webApi/slackWebApiClient.js';

export function buildSlackSender(
  subscriber: SlackSubscriber,
  [secret = '']: readonly string[],
  tuning: SenderTuning,
  highlightWords: HighlightWordsOf,
): ClosableSender {
  if (subscriber.botToken !== undefined) {
    // Slack's bot tokens are one line of printable ASCII; anything else would break the header it goes in.
    if (!/^[\x21-\x7e]+$/.test(secret.trim()))
      throw new SlackBotTokenError(subscriber.id, subscriber.botToken.env);
    const channel = subscriber.channel ?? '';
    const common = commonSenderOptions(tuning);
    const api = new SlackWebApiClient({
      token: secret,
      apiUrl: subscriber.apiUrl ?? DEFAULT_SLACK_API_URL,
      words: { tokenSecret: subscriber.botToken.env, channel },
      ...common,
      ...(tuning.slackApiPacing === undefined ? {} : { pacing: tuning.slackApiPacing }),
      ...(tuning.sleep === undefined ? {} : { sleep: tuning.sleep }),
    });
    const threshold = catchUpAfterMs(subscriber);
    return new BoardSender({
      subscriberId: subscriber.id,
      channel,
      api,
      messages: tuning.boardMessages ?? new InMemoryBoardMessages(),
      includeContactDetails: subscriber.includeContactDetails,
      highlightWords,
      ...(threshold === undefined ? {} : { catchUpAfterMs: threshold }),
      ...(common.clock === undefined ? {} : { clock: common.clock }),
      ...(tuning.boardCoalesceMs === undefined ? {} : { coalesceMs: tuning.boardCoalesceMs }),
    });
  }
  return new SlackSender({
    subscriberId: subscriber.id,
    includeContactDetails: subscriber.includeContactDetails,
    highlightWords,
    webhookUrl: secret,
    ...(subscriber.webhookUrl === undefined ? {} : { webhookUrlSecret: subscriber.webhookUrl.env }),
    ...commonSenderOptions(tuning),
    ...(tuning.slackPacer === undefined ? {} : { pacer: tuning.slackPacer }),
  });
}
