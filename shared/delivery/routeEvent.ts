// Which subscribers an event goes to: one decision, executed by both runtimes. The local runner routes each
// recorded event into its outbox with it; on AWS the Slack and webhook delivery functions split each message
// of their channel's queue with it, in place of one SNS filter policy per subscriber. On AWS the event
// also comes with its `audience` (messageAttributes.ts): whom the publisher found it timely for, which is
// how a person with `catchUpAfter` gets the catch-up instead of the stale events it stands for.
import { catchUpAfterMs } from '../config/catchUpAfter.js';
import type { SubscriberConfig } from '../config/configSchema.js';
import { catchUpAudience, EVERY_EVENT_AUDIENCE } from '../contracts/messageAttributes.js';
import type { NotifierEvent } from '../events/notifierEvent.js';
import { isDigested } from './digest/planDigests.js';
import { matchesFilter } from './subscriberFilter.js';

/** The `audience` a subscriber listens to: its own catch-up threshold, or every event (a webhook). */
export function audienceOf(subscriber: SubscriberConfig): string {
  const ms = catchUpAfterMs(subscriber);
  return ms === undefined ? EVERY_EVENT_AUDIENCE : catchUpAudience(Math.round(ms / 1000));
}

/**
 * Whether the subscriber gets the event at once: enabled, its filter matches, no digest holds it back,
 * and, when the event's audiences are known (AWS), the subscriber is among them.
 */
export function routesTo(
  subscriber: SubscriberConfig,
  event: NotifierEvent,
  audiences?: readonly string[],
): boolean {
  return (
    subscriber.enabled &&
    matchesFilter(subscriber.filter, event) &&
    !isDigested(subscriber, event) &&
    (audiences === undefined || audiences.includes(audienceOf(subscriber)))
  );
}

/** The subscribers, of those given, that get the event at once, in config order. */
export function routeEvent<S extends SubscriberConfig>(
  subscribers: readonly S[],
  event: NotifierEvent,
  audiences?: readonly string[],
): S[] {
  return subscribers.filter((subscriber) => routesTo(subscriber, event, audiences));
}
