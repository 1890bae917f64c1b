// Each organization's share of its token's budget: the organizations of the deployment whose token is the
// same token, itself included, whatever secret references hold it; counted by the identity the budget is
// keyed by, and never by the token itself.
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../../../shared/api/requestBudget.js';
import { tokenIdentity } from '../../../shared/api/tokenIdentity.js';
import { organizationsOnToken } from '../../../shared/poll/organizationsOnToken.js';

describe('tokenIdentity', () => {
  it('is the key the token’s budget is counted under, and does not contain the token', () => {
    const token = 'sim_a_token_value';
    expect(tokenIdentity(token)).toBe(new RequestBudget({ token }).key);
    expect(tokenIdentity(token)).toMatch(/^token#[0-9a-f]{32}$/);
    expect(tokenIdentity(token)).not.toContain(token);
  });

  it('tells tokens apart', () => {
    expect(tokenIdentity('one token')).not.toBe(tokenIdentity('another token'));
  });
});

describe('organizationsOnToken', () => {
  // North and East hold one token under two references; West has its own.
  const north = tokenIdentity('shared token');
  const east = tokenIdentity('shared token');
  const west = tokenIdentity('west token');
  const all = [north, east, west];

  it('counts the organizations whose token is the same token, whatever reference holds it', () => {
    expect(organizationsOnToken(all, north)).toBe(2);
    expect(organizationsOnToken(all, east)).toBe(2);
  });

  it('is one for an organization with a token of its own', () => {
    expect(organizationsOnToken(all, west)).toBe(1);
  });

  it('counts the organization itself when the list leaves it out', () => {
    expect(organizationsOnToken([west], north)).toBe(1);
  });
});
