import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../shared/http/retryAfter.js';

const NOW = Date.UTC(2026, 2, 5, 12, 0, 0);

describe('retryAfterMs', () => {
  it('reads Retry-After in seconds', () => {
    expect(retryAfterMs({ 'retry-after': '7' }, NOW)).toBe(7_000);
  });

  it('reads Retry-After in fractional seconds', () => {
    expect(retryAfterMs({ 'retry-after': '1.5' }, NOW)).toBe(1_500);
  });

  it('reads Retry-After 0 as no wait', () => {
    expect(retryAfterMs({ 'retry-after': '0' }, NOW)).toBe(0);
  });

  it('reads Retry-After as an HTTP date relative to now', () => {
    const at = new Date(NOW + 42_000).toUTCString();
    expect(retryAfterMs({ 'retry-after': at }, NOW)).toBe(42_000);
  });

  it('reads an HTTP date in the past as no wait, never a negative one', () => {
    const at = new Date(NOW - 60_000).toUTCString();
    expect(retryAfterMs({ 'retry-after': at }, NOW)).toBe(0);
  });

  it('takes the first value of a repeated header', () => {
    expect(retryAfterMs({ 'retry-after': ['3', '9'] }, NOW)).toBe(3_000);
  });

  it('reads X-RateLimit-Reset as an epoch in seconds when nothing remains', () => {
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 12) };
    expect(retryAfterMs(headers, NOW)).toBe(12_000);
  });

  it('reads a small X-RateLimit-Reset as seconds to wait', () => {
    expect(retryAfterMs({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' }, NOW)).toBe(30_000);
  });

  it('ignores X-RateLimit-Reset while requests remain', () => {
    expect(retryAfterMs({ 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '30' }, NOW)).toBeUndefined();
  });

  it('prefers Retry-After over the rate-limit headers', () => {
    const headers = { 'retry-after': '2', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' };
    expect(retryAfterMs(headers, NOW)).toBe(2_000);
  });

  it('falls back to the rate-limit headers when Retry-After is unreadable', () => {
    const headers = { 'retry-after': 'soon', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '5' };
    expect(retryAfterMs(headers, NOW)).toBe(5_000);
  });

  it.each<[string, Record<string, string>]>([
    ['no headers', {}],
    ['an unreadable Retry-After', { 'retry-after': 'soon' }],
    ['an empty Retry-After', { 'retry-after': '  ' }],
    ['a reset without remaining', { 'x-ratelimit-reset': '30' }],
    ['a reset that is not a number', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': 'later' }],
  ])('says nothing for %s', (_name, headers) => {
    expect(retryAfterMs(headers, NOW)).toBeUndefined();
  });
});
