// Which boards an order event touches (pure): the board of the order's establishment and pickup day, and
// for a rescheduled order the one it left, by the event's changes.
import type { FieldChange, OrderEvent } from '../../../events/orderEvent.js';
import { dayLabel } from '../../../time/dayLabel.js';

export interface BoardPlace {
  establishmentUuid: string;
  establishmentName: string;
  day: string;
}

export interface EventPlaces {
  /** Where the order is now. */
  current: BoardPlace;
  /** Where it was before this event moved it; undefined when it did not move. */
  left?: BoardPlace;
}

export function placesOf(event: OrderEvent): EventPlaces {
  const order = event.data.order;
  const current: BoardPlace = {
    establishmentUuid: order.establishment.uuid.toLowerCase(),
    establishmentName: order.establishment.name,
    day: order.pickup_date,
  };
  const field = (name: FieldChange['field']) =>
    event.data.changes.find((change): change is FieldChange => change.field === name);
  const date = field('pickup_date');
  const establishment = field('establishment');
  const leftDay = date?.from ?? current.day;
  const leftUuid = (establishment?.from ?? current.establishmentUuid).toLowerCase();
  if (leftDay === current.day && leftUuid === current.establishmentUuid) return { current };
  return {
    current,
    left: {
      establishmentUuid: leftUuid,
      establishmentName:
        establishment?.from_name ??
        (leftUuid === current.establishmentUuid ? current.establishmentName : 'another establishment'),
      day: leftDay,
    },
  };
}

/** "Tue 1 Dec, Café Bar": where a moved order went, as its old reply says. */
export function placeLabel(place: BoardPlace): string {
  return `${dayLabel(place.day)}, ${place.establishmentName}`;
}
