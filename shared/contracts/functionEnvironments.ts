// The environment variables the stack sets on each function: infra/ checks each function's `environment`
// against these (`satisfies`), and each function's environment schema (functions/*/environment.ts,
// functions/shared/deliveryEnvironment.ts) has exactly these keys, so a variable renamed, added or dropped
// on one side no longer compiles on the other. NOTIFIER_CONFIG is not among them: the stack compiles the
// config into the bundle (bundledConfig.ts), and the variable, set by hand, takes precedence over it.

/**
 * The poller: the state table, the prefix of the tokens' secret, the queue of its ticks, and the config's
 * catch-up thresholds (as the publisher's): its config has no subscribers, and it records the catch-ups.
 */
export interface PollerVariables {
  STATE_TABLE_NAME: string;
  SECRETS_PREFIX: string;
  TICK_QUEUE_URL: string;
  CATCH_UP_AFTER_SECONDS: string;
}

/**
 * The watchdog: the state table it reads every organization's poll state from, and the tick queue it
 * restarts lost chains on.
 */
export interface WatchdogVariables {
  STATE_TABLE_NAME: string;
  TICK_QUEUE_URL: string;
  ALARM_TOPIC_ARN: string;
}

/**
 * The publisher: the topic every event goes to (streamContract.ts has the rest of its contract), and the
 * config's catch-up thresholds in seconds, comma-separated (`none` for none), for each event's `audience`.
 */
export interface PublisherVariables {
  TOPIC_ARN: string;
  CATCH_UP_AFTER_SECONDS: string;
}

/** The digest function: the state table (events and the digests' claims) and the topic. */
export interface DigestVariables {
  STATE_TABLE_NAME: string;
  TOPIC_ARN: string;
}

/** The Slack and webhook delivery functions; deliveryQueueContract.ts says what each holds. */
export interface DeliveryVariables {
  STATE_TABLE_NAME: string;
  SECRETS_PREFIX: string;
  SUBSCRIBER_SECRET_SHARDS: string;
  DELIVERY_QUEUE_URL: string;
  DEAD_LETTER_QUEUE_URL: string;
}
