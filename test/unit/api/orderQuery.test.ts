import { describe, expect, it } from 'vitest';
import { OrderQuerySchema, orderQueryParams } from '../../../shared/api/orderQuery.js';
import { ESTABLISHMENT_UUID } from '../../support/orderFactory.js';

describe('OrderQuerySchema', () => {
  it('accepts every filter with valid values', () => {
    const query = {
      status: 'completed',
      establishment: ESTABLISHMENT_UUID,
      startDate: '2026-03-01',
      endDate: '2026-03-31',
      paymentMethod: 'credit',
    };
    expect(OrderQuerySchema.parse(query)).toEqual(query);
  });

  it('accepts an empty query, leaving defaults to the server', () => {
    expect(OrderQuerySchema.parse({})).toEqual({});
  });

  it('accepts a single-day range (both bounds inclusive)', () => {
    expect(OrderQuerySchema.safeParse({ startDate: '2026-03-05', endDate: '2026-03-05' }).success).toBe(true);
  });

  it.each<[string, Record<string, unknown>]>([
    ['an unknown status', { status: 'preparing' }],
    ['an unknown payment method', { paymentMethod: 'mbway' }],
    ['an establishment that is not a uuid', { establishment: 'main-canteen' }],
    ['a date in DD/MM/YY form', { startDate: '05/03/26' }],
    ['an impossible date', { endDate: '2026-02-30' }],
    ['a start date after the end date', { startDate: '2026-03-06', endDate: '2026-03-05' }],
  ])('rejects %s', (_name, query) => {
    expect(OrderQuerySchema.safeParse(query).success).toBe(false);
  });
});

describe('orderQueryParams', () => {
  it('uses the API parameter names', () => {
    expect(
      orderQueryParams({
        status: 'pending',
        establishment: ESTABLISHMENT_UUID,
        startDate: '2026-03-01',
        endDate: '2026-03-02',
        paymentMethod: 'cash',
      }),
    ).toEqual({
      status: 'pending',
      establishment: ESTABLISHMENT_UUID,
      start_date: '2026-03-01',
      end_date: '2026-03-02',
      payment_method_type: 'cash',
    });
  });

  it('sends nothing for omitted filters', () => {
    expect(orderQueryParams({})).toEqual({});
    expect(orderQueryParams({ status: 'archived' })).toEqual({ status: 'archived' });
  });
});
