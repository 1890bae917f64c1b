// The filters of GET /orders, validated before any request so bad input never costs one.
import * as z from 'zod';
import { normalizePickupDate } from './pickupDate.js';
import { OrderStatusSchema, PaymentMethodSchema } from './schemas.js';

/** A real calendar date written YYYY-MM-DD. */
export const IsoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine((text) => normalizePickupDate(text) === text, 'not a calendar date');

export const OrderQuerySchema = z
  .object({
    status: OrderStatusSchema.optional(),
    establishment: z.guid('expected an establishment uuid').optional(),
    startDate: IsoDateSchema.optional(),
    endDate: IsoDateSchema.optional(),
    paymentMethod: PaymentMethodSchema.optional(),
  })
  .refine((q) => !q.startDate || !q.endDate || q.startDate <= q.endDate, {
    message: 'start date is after end date',
    path: ['startDate'],
  });
export type OrderQuery = z.infer<typeof OrderQuerySchema>;

/** Query parameters as the API names them; omitted filters are left for the server's defaults. */
export function orderQueryParams(query: OrderQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.status) params.status = query.status;
  if (query.establishment) params.establishment = query.establishment;
  if (query.startDate) params.start_date = query.startDate;
  if (query.endDate) params.end_date = query.endDate;
  if (query.paymentMethod) params.payment_method_type = query.paymentMethod;
  return params;
}
