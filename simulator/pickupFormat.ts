// Writes `pickup_at` in the form the simulator is set to: ISO (YYYY-MM-DD, the spec's field table),
// DD/MM/YY (the spec's sample), or mixed, where the form depends on the order and flips on every
// response, so clients must treat a change of form as no change at all.
import { hashText } from './seededRandom.js';

export const PICKUP_FORMATS = ['iso', 'dmy', 'mixed'] as const;
export type PickupFormat = (typeof PICKUP_FORMATS)[number];

export class PickupDateWriter {
  private responses = 0;

  constructor(readonly format: PickupFormat) {}

  /** Starts one orders response; returns how to write each order's date within it. */
  nextResponse(): (isoDate: string, orderUuid: string) => string {
    const response = this.responses;
    this.responses += 1;
    return (isoDate, orderUuid) => {
      const useShortForm =
        this.format === 'dmy' || (this.format === 'mixed' && (hashText(orderUuid) + response) % 2 === 1);
      return useShortForm ? dayMonthShortYear(isoDate) : isoDate;
    };
  }
}

/** YYYY-MM-DD → DD/MM/YY. */
export function dayMonthShortYear(isoDate: string): string {
  const [year = '', month = '', day = ''] = isoDate.split('-');
  return `${day}/${month}/${year.slice(-2)}`;
}
