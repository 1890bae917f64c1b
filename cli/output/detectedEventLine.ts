// One readable line (and log record) per event the runner records, in the demo's columns: `detected
// created    NS-1064  Staff Room Counter  North School`. The record names the event and the order, never
// the customer: the event itself goes to the subscribers and to --events.
import type { OrderEvent } from '../../shared/events/orderEvent.js';
import type { LogRecord } from '../logging/logger.js';
import { activityLine, ESTABLISHMENT_WIDTH } from './activityLine.js';
import { PLAIN, type Style } from './terminalStyle.js';

export function detectedEventRecord(event: OrderEvent, style: Style = PLAIN): LogRecord {
  const { order, organization } = event.data;
  return {
    level: 'info',
    kind: 'event',
    message: activityLine(style, 'detected', event.type, order.reference, [
      order.establishment.name.padEnd(ESTABLISHMENT_WIDTH),
      style.dim(organization.name),
    ]),
    fields: {
      eventId: event.id,
      eventType: event.type,
      reference: order.reference,
      orderUuid: event.subject,
      establishment: order.establishment.name,
      organization: organization.name,
      organizationId: organization.id,
    },
  };
}
