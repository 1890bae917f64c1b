import { describe, expect, it } from 'vitest';
import { closestMatch } from '../../../shared/config/closestMatch.js';

describe('closestMatch', () => {
  it('suggests the known word one typo away', () => {
    expect(closestMatch('pollIntervalSecond', ['pollIntervalSeconds', 'window'])).toBe('pollIntervalSeconds');
  });

  it('ignores letter case when comparing', () => {
    expect(closestMatch('baseURL', ['baseUrl', 'requestsPerMinute'])).toBe('baseUrl');
  });

  it('prefers the nearest of several candidates', () => {
    expect(closestMatch('order.cancel', ['order.canceled', 'order.created'])).toBe('order.canceled');
  });

  it('suggests nothing when no candidate is near', () => {
    expect(closestMatch('logging', ['api', 'organizations', 'subscribers', 'smtp', 'state'])).toBeUndefined();
  });

  it('suggests nothing for a word that is already known', () => {
    expect(closestMatch('state', ['state', 'smtp'])).toBeUndefined();
  });
});
