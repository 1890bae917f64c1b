// send-test to a Slack app subscriber: a sample board, marked as a test in its header, in the subscriber's
// channel, and the sample event as a reply in its thread, as the kitchen's board would show a first
// order. Both are rendered by the board's own renderers and sent by its Web API client; nothing is kept in
// a message map, so a real board is never edited by a test.
import { DEFAULT_SLACK_API_URL, type SlackSubscriber } from '../../shared/config/configSchema.js';
import type { DeliveryOutcome } from '../../shared/delivery/deliveryOutcome.js';
import { type HighlightWordsOf, highlightWordsFor } from '../../shared/delivery/highlightWordsOf.js';
import { outcomeOf } from '../../shared/delivery/slack/board/boardSender.js';
import { boardTotals } from '../../shared/delivery/slack/board/boardTotals.js';
import { cardOf, isCanceled } from '../../shared/delivery/slack/board/orderCard.js';
import { renderBoard } from '../../shared/delivery/slack/board/renderBoard.js';
import { renderReply } from '../../shared/delivery/slack/board/renderReply.js';
import { formatSlackMessage } from '../../shared/delivery/slack/slackMessage.js';
import { SlackWebApiClient } from '../../shared/delivery/slack/webApi/slackWebApiClient.js';
import { isOrderEvent, type NotifierEvent } from '../../shared/events/notifierEvent.js';
import type { HttpClientFactory } from '../../shared/http/httpClient.js';

export interface SampleBoardTarget {
  subscriber: SlackSubscriber & { channel: string; botToken: { env: string } };
  token: string;
  highlightWords: HighlightWordsOf;
  httpClient?: HttpClientFactory;
}

export async function postSampleBoard(
  target: SampleBoardTarget,
  event: NotifierEvent,
): Promise<DeliveryOutcome> {
  const { subscriber } = target;
  const api = new SlackWebApiClient({
    token: target.token,
    apiUrl: subscriber.apiUrl ?? DEFAULT_SLACK_API_URL,
    words: { tokenSecret: subscriber.botToken.env, channel: subscriber.channel },
    ...(target.httpClient === undefined ? {} : { httpClient: target.httpClient }),
  });
  try {
    const words = highlightWordsFor(event, target.highlightWords);
    const order = isOrderEvent(event) ? event : undefined;
    const board = renderBoard(
      {
        organizationName: event.data.organization.name,
        establishmentName: order?.data.order.establishment.name ?? 'Sample establishment',
        day: order?.data.order.pickup_date ?? new Date(event.time).toISOString().slice(0, 10),
        atClosing: null,
        test: true,
      },
      boardTotals(order ? [cardOf(order, words)] : []),
    );
    const posted = await api.postMessage({ channel: subscriber.channel, ...board });
    if (!posted.ok) return outcomeOf(posted.failure);
    const reply = order
      ? renderReply(order, words, { canceled: isCanceled(order) })
      : formatSlackMessage(event, words);
    const replied = await api.postMessage({ channel: subscriber.channel, ...reply, threadTs: posted.ts });
    return replied.ok ? { kind: 'delivered' } : outcomeOf(replied.failure);
  } finally {
    await api.close();
  }
}
