// The sample event send-test delivers to one subscriber: of the type asked for, or else of a type its
// filter takes, with the establishment and payment method its filter names, so that the subscriber is
// shown what poll would send it.
import { randomUUID } from 'node:crypto';
import type { Config, SubscriberConfig } from '../../shared/config/configSchema.js';
import { CATCH_UP_EVENT_TYPE } from '../../shared/events/catchUpEvent.js';
import type { EventType, NotifierEvent } from '../../shared/events/notifierEvent.js';
import { PREP_CHANGED_EVENT_TYPE } from '../../shared/events/prepChangedEvent.js';
import { PREP_SUMMARY_EVENT_TYPE } from '../../shared/events/prepSummaryEvent.js';
import { sampleCatchUp } from '../../shared/events/sampleCatchUp.js';
import { sampleEvent, samplePrepChanged, samplePrepSummary } from '../../shared/events/sampleEvent.js';
import { calendarDateIn } from '../../shared/time/calendarDate.js';

/** Without --type: a new order, unless the filter leaves new orders out: then the first type it takes. */
export function defaultSampleType(subscriber: SubscriberConfig): EventType {
  const types = subscriber.filter?.types;
  if (types === undefined || types.includes('order.created')) return 'order.created';
  return types[0] ?? 'order.created';
}

export function sampleEventFor(
  config: Config,
  subscriber: SubscriberConfig,
  type: EventType,
  now: number,
  nonce: string = randomUUID(),
): NotifierEvent {
  // Subscribers take every organization's events; the first one names the sample's.
  const [organization] = config.organizations;
  if (!organization) throw new Error('a parsed config has at least one organization');
  const establishment = subscriber.filter?.establishments?.[0];
  const paymentMethod = subscriber.filter?.paymentMethods?.[0];
  const common = {
    organization: { id: organization.id, name: organization.name, timeZone: organization.timeZone },
    source: `${config.api.baseUrl.replace(/\/+$/, '')}/organizations/${organization.id}`,
    now,
    pickupDate: calendarDateIn(organization.timeZone, now),
    nonce,
    ...(establishment === undefined
      ? {}
      : { establishment: { uuid: establishment, name: 'Sample establishment' } }),
  };
  if (type === PREP_SUMMARY_EVENT_TYPE)
    return samplePrepSummary({ ...common, highlightWords: organization.highlightWords });
  if (type === PREP_CHANGED_EVENT_TYPE) return samplePrepChanged(common);
  if (type === CATCH_UP_EVENT_TYPE)
    return sampleCatchUp({ ...common, ...(paymentMethod === undefined ? {} : { paymentMethod }) });
  return sampleEvent({ ...common, type, ...(paymentMethod === undefined ? {} : { paymentMethod }) });
}
