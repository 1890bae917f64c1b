// Lets the delivery loop stop between attempts, never within one. Once the stop signal is aborted no new
// attempt starts (nothing due is handed out, and a send not yet begun is refused before it touches the
// network), while attempts already in flight finish and have their outcome recorded.
import type { DeliveryOutbox } from '../../shared/delivery/deliveryOutbox.js';
import type { EventSender } from '../../shared/delivery/deliveryOutcome.js';
import { RunnerStoppingError } from './stoppableSleep.js';

export class DeliveryGate {
  readonly #stop: AbortSignal;
  #inFlight = 0;
  #waiters: Array<() => void> = [];

  constructor(stop: AbortSignal) {
    this.#stop = stop;
  }

  outbox(outbox: DeliveryOutbox): DeliveryOutbox {
    const stop = this.#stop;
    return {
      dueDeliveries: async (nowMs, limit) => (stop.aborted ? [] : outbox.dueDeliveries(nowMs, limit)),
      markDelivered: (subscriberId, eventId, nowMs) => outbox.markDelivered(subscriberId, eventId, nowMs),
      markFailed: (subscriberId, eventId, failure) => outbox.markFailed(subscriberId, eventId, failure),
      disableSubscriber: (subscriberId, reason, nowMs) =>
        outbox.disableSubscriber(subscriberId, reason, nowMs),
      nextDeliveryDueAt: () => outbox.nextDeliveryDueAt(),
    };
  }

  senders(senders: ReadonlyMap<string, EventSender>): Map<string, EventSender> {
    return new Map(
      [...senders].map(([id, sender]): [string, EventSender] => [
        id,
        {
          send: async (event) => {
            // Thrown, not answered: an outcome would be recorded as an attempt and spend a retry.
            if (this.#stop.aborted) throw new RunnerStoppingError();
            this.#inFlight += 1;
            try {
              return await sender.send(event);
            } finally {
              this.#inFlight -= 1;
              if (this.#inFlight === 0) this.#wake();
            }
          },
        },
      ]),
    );
  }

  /** Resolves once no attempt is in flight and the last one's outcome has been recorded. */
  async settled(): Promise<void> {
    if (this.#inFlight > 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    // The outcome is recorded in the continuation after send resolves: let it run first.
    await new Promise((resolve) => setImmediate(resolve));
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
