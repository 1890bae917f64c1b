// Reads and validates the query of GET /orders the way a Laravel form request would: every invalid
// field reported at once in a field → messages map, and the spec's defaults for whatever was not sent.
import * as z from 'zod';
import { normalizePickupDate } from '../shared/api/pickupDate.js';
import {
  type OrderStatus,
  OrderStatusSchema,
  type PaymentMethod,
  PaymentMethodSchema,
} from '../shared/api/schemas.js';
import { counted } from '../shared/text/counted.js';

export interface OrderListingQuery {
  status: OrderStatus;
  establishment: string | undefined;
  startDate: string;
  endDate: string;
  paymentMethod: PaymentMethod | undefined;
  page: number;
}

export type FieldErrors = Record<string, string[]>;

export type ParsedOrderListingQuery =
  | { ok: true; query: OrderListingQuery }
  | { ok: false; errors: FieldErrors };

const DEFAULT_STATUS: OrderStatus = 'pending';
const UUID = z.guid();
const ISO_DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const INTEGER = /^[+-]?\d+$/;

/** `today` (YYYY-MM-DD in the simulator's zone) stands in for each missing date bound. */
export function parseOrderListingQuery(params: URLSearchParams, today: string): ParsedOrderListingQuery {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const value = (name: string) => lastValue(params, name);

  const statusText = value('status');
  const status = statusText === undefined ? DEFAULT_STATUS : OrderStatusSchema.safeParse(statusText).data;
  if (status === undefined) fail('status', 'The selected status is invalid.');

  const establishment = value('establishment');
  if (establishment !== undefined && !UUID.safeParse(establishment).success) {
    fail('establishment', 'The establishment field must be a valid UUID.');
  }

  const startText = value('start_date');
  const endText = value('end_date');
  const startDate = startText === undefined ? today : checkDate('start_date', startText, fail);
  const endDate = endText === undefined ? today : checkDate('end_date', endText, fail);
  // Compared only when both were sent: with one bound missing the range may simply be empty.
  if (startText !== undefined && endText !== undefined && startDate && endDate && startDate > endDate) {
    fail('start_date', 'The start date field must be a date before or equal to end date.');
    fail('end_date', 'The end date field must be a date after or equal to start date.');
  }

  const paymentText = value('payment_method_type');
  const paymentMethod =
    paymentText === undefined ? undefined : PaymentMethodSchema.safeParse(paymentText).data;
  if (paymentText !== undefined && paymentMethod === undefined) {
    fail('payment_method_type', 'The selected payment method type is invalid.');
  }

  const pageText = value('page');
  let page = 1;
  if (pageText !== undefined) {
    if (!INTEGER.test(pageText)) fail('page', 'The page field must be an integer.');
    else if (Number(pageText) < 1) fail('page', 'The page field must be at least 1.');
    else page = Number(pageText);
  }

  if (Object.keys(errors).length > 0 || status === undefined || !startDate || !endDate) {
    return { ok: false, errors };
  }
  return { ok: true, query: { status, establishment, startDate, endDate, paymentMethod, page } };
}

/** Laravel's summary line: the first message, and how many more there are. */
export function validationMessage(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const more = messages.length - 1;
  if (more <= 0) return first;
  return `${first} (and ${counted(more, 'more error')})`;
}

function checkDate(
  field: string,
  text: string,
  fail: (field: string, message: string) => void,
): string | undefined {
  const label = field.replace('_', ' ');
  if (!ISO_DATE_SHAPE.test(text)) {
    fail(field, `The ${label} field must match the format Y-m-d.`);
    return undefined;
  }
  if (normalizePickupDate(text) !== text) {
    fail(field, `The ${label} field must be a valid date.`);
    return undefined;
  }
  return text;
}

/** PHP reads a repeated plain parameter as its last value. */
function lastValue(params: URLSearchParams, name: string): string | undefined {
  return params.getAll(name).at(-1);
}
