// One sender per subscriber, built on first use from the config and the runtime's secrets, and kept so
// connection pools stay warm. Secrets are resolved on each use (the Secrets Manager resolver caches them);
// when one has changed, a rotated signing secret or a new Slack URL, the sender is rebuilt and the old
// pool closed. Both runtimes get their senders here, so they build and validate them the same way.
import type { SmtpConfig, SubscriberConfig } from '../config/configSchema.js';
import { subscriberPathIn } from '../config/secretReferences.js';
import type { SecretResolver } from '../config/secretResolver.js';
import type { SenderBuilder } from './buildSender.js';
import type { ClosableSender, EventSender } from './deliveryOutcome.js';
import { SubscriberConfigError } from './errors.js';
import type { HighlightWordsOf } from './highlightWordsOf.js';
import { resolveSenderSecrets } from './senderSecrets.js';
import type { SenderTuning } from './senderTuning.js';

export interface SubscriberSendersOptions {
  subscribers: readonly SubscriberConfig[];
  smtp?: SmtpConfig | undefined;
  secrets: SecretResolver;
  tuning?: SenderTuning;
  /** Told, at each build, of a rotation's signing secret left out because it is not set. */
  onWarning?: (message: string) => void;
  /** buildSender locally; on AWS, the one builder of the function's subscriber type. */
  build: SenderBuilder;
  /** Each organization's words that flag a note: `highlightWordsOf(config.organizations)`. */
  highlightWords: HighlightWordsOf;
  /**
   * Each subscriber's JSON path in the config (`subscriberPathIn(config.subscribers)`), for messages about
   * its secrets; by default its place in `subscribers`, right when that is the config's whole list.
   */
  subscriberPath?: (subscriberId: string) => string;
}

export class SubscriberSenders {
  readonly #subscribers: ReadonlyMap<string, SubscriberConfig>;
  readonly #options: SubscriberSendersOptions;
  readonly #senders = new Map<string, { secretValues: readonly string[]; sender: ClosableSender }>();

  constructor(options: SubscriberSendersOptions) {
    this.#options = options;
    this.#subscribers = new Map(
      options.subscribers
        .filter((subscriber) => subscriber.enabled)
        .map((subscriber) => [subscriber.id, subscriber]),
    );
  }

  /**
   * The subscriber's sender; undefined when the config no longer has it (or has it disabled).
   * @throws the secret's lookup error, or a SubscriberConfigError when its settings cannot work
   */
  async senderFor(subscriberId: string): Promise<EventSender | undefined> {
    const subscriber = this.#subscribers.get(subscriberId);
    if (subscriber === undefined) return undefined;
    const { smtp, secrets, tuning, onWarning, highlightWords } = this.#options;
    const where = this.#options.subscriberPath ?? subscriberPathIn(this.#options.subscribers);
    const { values, unset } = await resolveSenderSecrets(subscriber, smtp, secrets, where(subscriberId));
    const cached = this.#senders.get(subscriberId);
    if (cached && sameValues(cached.secretValues, values)) return cached.sender;
    for (const ref of unset) {
      onWarning?.(
        `webhook subscriber "${subscriberId}": signing secret ${ref.env} is not set; signing with the ${values.length} that are`,
      );
    }
    const sender = this.#options.build(subscriber, values, smtp, tuning ?? {}, highlightWords);
    this.#senders.set(subscriberId, { secretValues: values, sender });
    await cached?.sender.close();
    return sender;
  }

  /**
   * Builds every enabled subscriber's sender now, so start-up refuses what could never be delivered.
   * @returns each subscriber's problem, all at once; empty when every sender could be built
   */
  async prepare(): Promise<SubscriberConfigError[]> {
    const problems: SubscriberConfigError[] = [];
    for (const subscriberId of this.#subscribers.keys()) {
      try {
        await this.senderFor(subscriberId);
      } catch (error) {
        if (!(error instanceof SubscriberConfigError)) throw error;
        problems.push(error);
      }
    }
    return problems;
  }

  /** Lets every sender built so far finish what it put off, by `untilMs` (ClosableSender.settle). */
  async settle(untilMs: number): Promise<void> {
    await Promise.all([...this.#senders.values()].map(({ sender }) => sender.settle?.(untilMs)));
  }

  async close(): Promise<void> {
    const senders = [...this.#senders.values()];
    this.#senders.clear();
    await Promise.all(senders.map(({ sender }) => sender.close()));
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
