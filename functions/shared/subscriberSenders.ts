// One sender per subscriber and container, so connection pools stay warm between invocations. Secrets are
// resolved on each use (Secrets Manager values are cached by the resolver); when one has changed — a
// rotated signing secret, a new Slack URL — the sender is rebuilt and the old pool closed.
import type { SecretResolver } from '../../shared/config/secretResolver.js';
import type { EventSender } from '../../shared/delivery/deliveryOutcome.js';
import type { DeliverySubscriber } from './deliveryEnvironment.js';

export interface ClosableSender extends EventSender {
  close(): Promise<void>;
}

/** How one kind of subscriber is delivered to: which secrets its sender needs, and how it is built. */
export interface DeliveryChannel<S extends DeliverySubscriber> {
  type: S['type'];
  /** The secret values the sender is built from, in a stable order. */
  resolveSecrets(subscriber: S, secrets: SecretResolver): Promise<string[]>;
  /** @throws when the subscriber's settings or secrets cannot make a sender (a malformed secret, …) */
  build(subscriber: S, secretValues: readonly string[]): ClosableSender;
}

export class SubscriberSenders<S extends DeliverySubscriber> {
  readonly #senders = new Map<string, { secretValues: readonly string[]; sender: ClosableSender }>();

  constructor(
    private readonly channel: DeliveryChannel<S>,
    private readonly secrets: SecretResolver,
  ) {}

  /** @throws SecretNotSetError, SecretLookupError, or the channel's build error */
  async senderFor(subscriber: S): Promise<EventSender> {
    const secretValues = await this.channel.resolveSecrets(subscriber, this.secrets);
    const cached = this.#senders.get(subscriber.id);
    if (cached && sameValues(cached.secretValues, secretValues)) return cached.sender;
    const sender = this.channel.build(subscriber, secretValues);
    this.#senders.set(subscriber.id, { secretValues, sender });
    await cached?.sender.close();
    return sender;
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
