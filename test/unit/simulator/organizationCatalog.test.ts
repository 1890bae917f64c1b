import { describe, expect, it } from 'vitest';
import { ESTABLISHMENTS } from '../../../simulator/catalog.js';
import { buildOrganizationCatalog } from '../../../simulator/organizationCatalog.js';
import { SeededRandom } from '../../../simulator/seededRandom.js';
import { T0 } from './worldFixture.js';

describe('buildOrganizationCatalog', () => {
  it('runs every establishment template by default', () => {
    const catalog = buildOrganizationCatalog(new SeededRandom(5), T0);
    expect(catalog.establishments.map((establishment) => establishment.name)).toEqual(
      ESTABLISHMENTS.map((template) => template.name),
    );
  });

  it('runs only the first templates when asked for fewer, with the records the full catalog gives them', () => {
    const full = buildOrganizationCatalog(new SeededRandom(5), T0);
    const three = buildOrganizationCatalog(new SeededRandom(5), T0, { establishments: 3 });
    expect(three.establishments).toEqual(full.establishments.slice(0, 3));
    expect(three.products).toEqual(full.products);
    expect(three.customers).toEqual(full.customers);
  });

  it.each([0, 5, 2.5])('refuses %s establishments', (establishments) => {
    expect(() => buildOrganizationCatalog(new SeededRandom(5), T0, { establishments })).toThrow(RangeError);
  });
});
