// One readable line (and log record) per event the runner records, in the demo's columns: `detected
// created    NS-1064  Staff Room Counter  North School`; an update says what changed (`Lasagne 1 → 2; 🚨
// notes: Allergic to eggs`). The record names the event and the order, never the customer: the event
// itself goes to the subscribers and to --events.
import {
  eventReference,
  isEstablishmentEvent,
  isOrderEvent,
  type NotifierEvent,
} from '../../shared/events/notifierEvent.js';
import type { LogRecord } from '../logging/logger.js';
import { activityLine, eventColumns } from './activityLine.js';
import { PLAIN, type Style } from './terminalStyle.js';

/** @param highlightWords the words of the event's organization, which mark an update's new note */
export function detectedEventRecord(
  event: NotifierEvent,
  style: Style = PLAIN,
  highlightWords?: readonly string[],
): LogRecord {
  const { organization } = event.data;
  const [reference, details] = eventColumns(event, style, highlightWords);
  const establishment = isEstablishmentEvent(event)
    ? event.data.establishment.name
    : isOrderEvent(event)
      ? event.data.order.establishment.name
      : undefined;
  return {
    level: 'info',
    kind: 'event',
    message: activityLine(style, 'detected', event.type, reference, [
      ...details,
      style.dim(organization.name),
    ]),
    fields: {
      eventId: event.id,
      eventType: event.type,
      reference: eventReference(event),
      // The order's uuid, or for a prep summary or prep_changed the establishment's.
      subject: event.subject,
      ...(establishment === undefined ? {} : { establishment }),
      organization: organization.name,
      organizationId: organization.id,
    },
  };
}
