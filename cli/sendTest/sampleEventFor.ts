// The sample event send-test delivers to one subscriber: of the type asked for, or else of a type its
// filter takes, with the establishment and payment method its filter names, so that the subscriber is
// shown what poll would send it.
import { randomUUID } from 'node:crypto';
import type { Config, SubscriberConfig } from '../../shared/config/configSchema.js';
import type { OrderEventType as EventType, OrderEvent } from '../../shared/events/orderEvent.js';
import { sampleEvent } from '../../shared/events/sampleEvent.js';
import { calendarDateIn } from '../../shared/time/calendarDate.js';

/** Without --type: a new order, unless the filter leaves new orders out. */
export function defaultSampleType(subscriber: SubscriberConfig): EventType {
  const types = subscriber.filter?.types;
  if (types === undefined || types.includes('order.created')) return 'order.created';
  return types.find((type): type is EventType => type.startsWith('order.')) ?? 'order.created';
}

export function sampleEventFor(
  config: Config,
  subscriber: SubscriberConfig,
  type: EventType,
  now: number,
  nonce: string = randomUUID(),
): OrderEvent {
  // Subscribers take every organization's events; the first one names the sample's.
  const [organization] = config.organizations;
  if (!organization) throw new Error('a parsed config has at least one organization');
  const establishment = subscriber.filter?.establishments?.[0];
  const paymentMethod = subscriber.filter?.paymentMethods?.[0];
  return sampleEvent({
    type,
    organization: { id: organization.id, name: organization.name },
    source: `${config.api.baseUrl.replace(/\/+$/, '')}/organizations/${organization.id}`,
    now,
    pickupDate: calendarDateIn(organization.timeZone, now),
    nonce,
    ...(establishment === undefined
      ? {}
      : { establishment: { uuid: establishment, name: 'Sample establishment' } }),
    ...(paymentMethod === undefined ? {} : { paymentMethod }),
  });
}
