import { describe, expect, it } from 'vitest';
import { parseOrderListingQuery, validationMessage } from '../../../simulator/orderListingQuery.js';

const TODAY = '2026-03-10';
const parse = (query: string) => parseOrderListingQuery(new URLSearchParams(query), TODAY);

describe('parseOrderListingQuery', () => {
  it('applies the spec defaults: pending, today to today, all establishments and payment methods, page 1', () => {
    expect(parse('')).toEqual({
      ok: true,
      query: {
        status: 'pending',
        establishment: undefined,
        startDate: TODAY,
        endDate: TODAY,
        paymentMethod: undefined,
        page: 1,
      },
    });
  });

  it('reads every filter that is sent', () => {
    const uuid = '0b7d4c8e-2f7a-4c1e-9d3b-5a6f7e8d9c0b';
    expect(
      parse(
        `status=archived&establishment=${uuid}&start_date=2026-03-01&end_date=2026-03-31&payment_method_type=credit&page=3`,
      ),
    ).toEqual({
      ok: true,
      query: {
        status: 'archived',
        establishment: uuid,
        startDate: '2026-03-01',
        endDate: '2026-03-31',
        paymentMethod: 'credit',
        page: 3,
      },
    });
  });

  it('reports every invalid field at once, Laravel style', () => {
    const result = parse(
      'status=open&establishment=42&start_date=10/03/26&end_date=2026-02-30&payment_method_type=cheque&page=0',
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        status: ['The selected status is invalid.'],
        establishment: ['The establishment field must be a valid UUID.'],
        start_date: ['The start date field must match the format Y-m-d.'],
        end_date: ['The end date field must be a valid date.'],
        payment_method_type: ['The selected payment method type is invalid.'],
        page: ['The page field must be at least 1.'],
      },
    });
  });

  it('refuses a start date after the end date on both fields', () => {
    const result = parse('start_date=2026-03-12&end_date=2026-03-11');
    expect(result.ok).toBe(false);
    expect(!result.ok && Object.keys(result.errors)).toEqual(['start_date', 'end_date']);
  });

  it('leaves a lone start date after today to an empty range instead of refusing it', () => {
    expect(parse('start_date=2026-03-12')).toMatchObject({
      ok: true,
      query: { startDate: '2026-03-12', endDate: TODAY },
    });
  });

  it('refuses a page that is not an integer, and an empty value of any filter', () => {
    expect(parse('page=2.5')).toEqual({
      ok: false,
      errors: { page: ['The page field must be an integer.'] },
    });
    expect(parse('page=abc')).toEqual({
      ok: false,
      errors: { page: ['The page field must be an integer.'] },
    });
    expect(parse('status=')).toEqual({ ok: false, errors: { status: ['The selected status is invalid.'] } });
  });

  it('takes the last value of a repeated parameter, as PHP does', () => {
    expect(parse('status=pending&status=canceled')).toMatchObject({
      ok: true,
      query: { status: 'canceled' },
    });
  });

  it('summarizes the errors as the first message and a count of the rest', () => {
    expect(validationMessage({ status: ['The selected status is invalid.'] })).toBe(
      'The selected status is invalid.',
    );
    expect(validationMessage({ status: ['A.'], page: ['B.'], start_date: ['C.'] })).toBe(
      'A. (and 2 more errors)',
    );
  });
});
