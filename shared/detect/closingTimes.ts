// When each establishment closes the day's orders (pure): its `order_closing_time` on its `working_days`,
// in the organization's time zone. The prep summary and the cadence both read the schedule from here.
import type { Establishment } from '../api/schemas.js';
import { isoWeekday, zonedInstant } from '../time/zonedTime.js';

/** The part of an establishment record the schedule needs. */
export type EstablishmentSchedule = Pick<
  Establishment,
  'uuid' | 'name' | 'working_days' | 'order_closing_time'
>;

export interface Closing {
  establishment: { uuid: string; name: string };
  /** The pickup date whose orders close: the day itself. */
  pickupDate: string;
  /** The closing instant, epoch ms. */
  closesAt: number;
}

/** Whether the establishment takes orders for pickup on `date`. */
export function worksOn(establishment: EstablishmentSchedule, date: string): boolean {
  return establishment.working_days.includes(isoWeekday(date));
}

/** Every closing on `date`, earliest first; none on a day no establishment works. */
export function closingsOn(
  establishments: readonly EstablishmentSchedule[],
  date: string,
  timeZone: string,
): Closing[] {
  return establishments
    .filter((establishment) => worksOn(establishment, date))
    .map((establishment) => ({
      establishment: { uuid: establishment.uuid, name: establishment.name },
      pickupDate: date,
      closesAt: zonedInstant(date, establishment.order_closing_time, timeZone),
    }))
    .sort((a, b) => a.closesAt - b.closesAt);
}
