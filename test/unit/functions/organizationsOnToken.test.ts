// Each organization's share of its token's budget: the organizations of the deployment whose token is the
// same secret reference, itself included.
import { describe, expect, it } from 'vitest';
import { organizationsOnToken } from '../../../functions/poller/pollOnTrigger.js';
import { type OrganizationConfig, OrganizationConfigSchema } from '../../../shared/config/configSchema.js';

const organization = (n: number, token: string): OrganizationConfig =>
  OrganizationConfigSchema.parse({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `School ${n}`,
    token: { env: token },
    timeZone: 'Europe/Lisbon',
  });

describe('organizationsOnToken', () => {
  const north = organization(1, 'SHARED_TOKEN');
  const east = organization(2, 'SHARED_TOKEN');
  const west = organization(3, 'WEST_TOKEN');
  const all = [north, east, west];

  it('counts the organizations whose token is the same secret reference', () => {
    expect(organizationsOnToken(all, north)).toBe(2);
    expect(organizationsOnToken(all, east)).toBe(2);
  });

  it('is one for an organization with a token of its own', () => {
    expect(organizationsOnToken(all, west)).toBe(1);
  });
});
