// One readable line (and log record) per event the runner records, in the demo's columns: `detected
// created    NS-1064  Staff Room Counter  North School`. The record names the event and the order, never
// the customer: the event itself goes to the subscribers and to --events.
import {
  eventReference,
  isOrderEvent,
  isPrepSummary,
  type NotifierEvent,
} from '../../shared/events/notifierEvent.js';
import type { LogRecord } from '../logging/logger.js';
import { activityLine, eventColumns } from './activityLine.js';
import { PLAIN, type Style } from './terminalStyle.js';

export function detectedEventRecord(event: NotifierEvent, style: Style = PLAIN): LogRecord {
  const { organization } = event.data;
  const [reference, details] = eventColumns(event, style);
  const establishment = isPrepSummary(event)
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
      // The order's uuid, or for a prep summary the establishment's.
      subject: event.subject,
      ...(establishment === undefined ? {} : { establishment }),
      organization: organization.name,
      organizationId: organization.id,
    },
  };
}
