// Where each organization's deliveries stand in the local outbox (queued, dead), for the status line of
// every cycle and the summary on exit. The outbox rows do not name the organization; the events do, so
// the tally remembers which organization each event belongs to and looks up only the ones it has not met.
import type { OutboxCounts } from '../output/pollReportLine.js';
import type { LocalPorts } from './localRuntime.js';

export type OutboxReader = Pick<LocalPorts, 'eventLog'> & {
  outbox: Pick<LocalPorts['outbox'], 'listDeliveries'>;
};

export class OutboxTally {
  readonly #store: OutboxReader;
  readonly #organizationOf = new Map<string, string | undefined>();

  constructor(store: OutboxReader) {
    this.#store = store;
  }

  /** Events a cycle just recorded: their deliveries are counted without a lookup. */
  remember(organizationId: string, eventIds: Iterable<string>): void {
    for (const eventId of eventIds) this.#organizationOf.set(eventId, organizationId);
  }

  /** The organization an event belongs to; undefined once the event has been pruned from the log. */
  async organizationOf(eventId: string): Promise<string | undefined> {
    if (!this.#organizationOf.has(eventId)) {
      this.#organizationOf.set(eventId, (await this.#store.eventLog.getEvent(eventId))?.organizationId);
    }
    return this.#organizationOf.get(eventId);
  }

  /** Queued and dead deliveries by organization id. */
  async countsByOrganization(): Promise<Map<string, OutboxCounts>> {
    const counts = new Map<string, OutboxCounts>();
    for (const status of ['queued', 'dead'] as const) {
      for (const delivery of await this.#store.outbox.listDeliveries({ status })) {
        const organizationId = await this.organizationOf(delivery.eventId);
        if (organizationId === undefined) continue;
        const entry = counts.get(organizationId) ?? { queued: 0, dead: 0 };
        entry[status] += 1;
        counts.set(organizationId, entry);
      }
    }
    return counts;
  }

  async countsFor(organizationId: string): Promise<OutboxCounts> {
    return (await this.countsByOrganization()).get(organizationId) ?? { queued: 0, dead: 0 };
  }
}
