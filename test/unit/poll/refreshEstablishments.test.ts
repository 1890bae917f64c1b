// Pins the establishments phase: GET /establishments only when the cache is missing or an hour old, or a
// minute old and an order names an establishment it lacks; a record skipped as malformed is named in the
// cache beside those read well; a failure this listing alone meets keeps the old cache and is a listing
// problem, one every listing would meet (a 401) a failure that stops the cycle; no budget or a stopped
// cycle defers it without a request.
import { describe, expect, it } from 'vitest';
import { NO_NOTES } from '../../../shared/poll/pollReport.js';
import { refreshEstablishments } from '../../../shared/poll/refreshEstablishments.js';
import type { EstablishmentsCache } from '../../../shared/store/pollState.js';
import {
  cycleFixture,
  establishmentsCache,
  MINUTE,
  mainCanteen,
  parsed,
  T0,
  TODAY,
} from '../../support/cycleFixture.js';
import { apiFailures } from '../../support/inMemoryOrdersSource.js';
import {
  ESTABLISHMENT_UUID,
  type EstablishmentInput,
  makeEstablishment,
  makeOrder,
} from '../../support/orderFactory.js';

const canteen = mainCanteen();
const hall = makeEstablishment({ name: 'Sports hall' });
const ofCanteen = parsed(makeOrder({ pickup_at: TODAY }));
const ofHall = parsed(makeOrder({ pickup_at: TODAY, establishment: { uuid: hall.uuid, name: hall.name } }));

/** A cycle whose API lists the canteen and the hall, with the cache as `cache`. */
async function refresh(
  cache: EstablishmentsCache,
  orders = [ofCanteen],
  options: { available?: number; stopped?: boolean } = {},
) {
  const fixture = await cycleFixture({
    establishments: [canteen, hall],
    ...(options.available === undefined ? {} : { available: options.available }),
  });
  const refreshed = await refreshEstablishments(fixture.context, cache, orders, options.stopped ?? false);
  return { ...fixture, refreshed };
}

describe('refreshEstablishments', () => {
  it('asks nothing while the cache is under an hour old and knows every order’s establishment', async () => {
    const cache = establishmentsCache(T0 - 59 * MINUTE, [canteen]);
    const { refreshed, source } = await refresh(cache);
    expect(refreshed).toEqual({ cache, notes: NO_NOTES, stopsCycle: false });
    expect(refreshed.cache).toBe(cache);
    expect(source.requestCount).toBe(0);
  });

  it('reads the establishments when there is no cache yet', async () => {
    const { refreshed, source } = await refresh(null, []);
    expect(refreshed).toEqual({
      cache: establishmentsCache(T0, [canteen, hall]),
      requests: 1,
      notes: NO_NOTES,
      stopsCycle: false,
    });
    expect(source.fetched.map((page) => page.listing)).toEqual(['establishments']);
  });

  it('reads them again once the cache is an hour old', async () => {
    const { refreshed } = await refresh(establishmentsCache(T0 - 60 * MINUTE, [canteen]));
    expect(refreshed.cache).toEqual(establishmentsCache(T0, [canteen, hall]));
    expect(refreshed.requests).toBe(1);
  });

  it('reads them sooner when an order names an establishment the cache lacks', async () => {
    const { refreshed } = await refresh(establishmentsCache(T0 - MINUTE, [canteen]), [ofCanteen, ofHall]);
    expect(refreshed.cache?.records.map((record) => record.name)).toEqual([canteen.name, hall.name]);
  });

  it('does not read them for an unknown establishment within a minute of the last read', async () => {
    const cache = establishmentsCache(T0 - MINUTE + 1, [canteen]);
    const { refreshed, source } = await refresh(cache, [ofHall]);
    expect(refreshed.cache).toBe(cache);
    expect(source.requestCount).toBe(0);
  });

  it('knows an establishment whatever the case of its uuid', async () => {
    const shouting = parsed(
      makeOrder({
        pickup_at: TODAY,
        establishment: { uuid: ESTABLISHMENT_UUID.toUpperCase(), name: 'Main canteen' },
      }),
    );
    const { source } = await refresh(establishmentsCache(T0 - 10 * MINUTE, [canteen]), [shouting]);
    expect(source.requestCount).toBe(0);
  });

  it('keeps the old cache on a failure only this listing meets, as a listing problem, not a failure', async () => {
    const cache = establishmentsCache(T0 - 2 * 60 * MINUTE, [canteen]);
    const fixture = await cycleFixture({ establishments: [canteen, hall] });
    fixture.source.failListing({ listing: 'establishments', error: apiFailures.server(503) });
    const refreshed = await refreshEstablishments(fixture.context, cache, [], false);
    expect(refreshed.cache).toBe(cache);
    expect(refreshed.requests).toBe(1);
    expect(refreshed.stopsCycle).toBe(false);
    expect(refreshed.notes.failures).toEqual([]);
    expect(refreshed.notes.problems).toEqual([
      {
        kind: 'unread_listing',
        listing: 'establishments',
        page: 1,
        detail: 'North School: server error (503) on GET /establishments; closing times as last read',
      },
    ]);
    expect(refreshed.notes.deferred).toEqual([]);
  });

  it('stops the cycle when it fails as every listing would', async () => {
    const fixture = await cycleFixture({ establishments: [canteen] });
    fixture.source.failListing({ listing: 'establishments', error: apiFailures.unauthorized() });
    const refreshed = await refreshEstablishments(fixture.context, null, [], false);
    expect(refreshed).toMatchObject({ cache: null, stopsCycle: true });
    expect(refreshed.notes.failures).toHaveLength(1);
  });

  it('keeps the establishments read well and names the one skipped, with its field, as a problem only', async () => {
    const cache = establishmentsCache(T0 - 2 * 60 * MINUTE, [canteen, hall]);
    const { working_days: _dropped, ...withoutDays } = hall;
    const fixture = await cycleFixture({
      establishments: [canteen, withoutDays as unknown as EstablishmentInput],
    });
    const refreshed = await refreshEstablishments(fixture.context, cache, [], false);
    expect(refreshed.cache).toEqual({
      ...establishmentsCache(T0, [canteen]),
      unreadable: [
        { uuid: hall.uuid, page: 1, detail: expect.stringMatching(/^record #1 on the page: working_days: /) },
      ],
    });
    expect(refreshed.notes.failures).toEqual([]);
    expect(refreshed.stopsCycle).toBe(false);
    expect(refreshed.notes.problems).toEqual([
      {
        kind: 'skipped_record',
        listing: 'establishments',
        page: 1,
        uuid: hall.uuid,
        detail: expect.stringContaining('working_days'),
      },
    ]);
  });

  it('keeps the old cache when the listing is not consistent, its problems said', async () => {
    const cache = establishmentsCache(T0 - 2 * 60 * MINUTE, [canteen]);
    const fixture = await cycleFixture({ establishments: [canteen, canteen, hall] });
    const refreshed = await refreshEstablishments(fixture.context, cache, [], false);
    expect(refreshed.cache).toBe(cache);
    expect(refreshed.notes.failures).toEqual([]);
    expect(refreshed.notes.problems).toEqual([
      expect.objectContaining({ kind: 'repeated_uuid', listing: 'establishments', uuid: canteen.uuid }),
    ]);
  });

  it('defers the read without a request when the budget has no room', async () => {
    const cache = establishmentsCache(T0 - 2 * 60 * MINUTE, [canteen]);
    const { refreshed, source } = await refresh(cache, [], { available: 0 });
    expect(refreshed).toEqual({
      cache,
      notes: { ...NO_NOTES, deferred: ['establishments'] },
      stopsCycle: false,
    });
    expect(source.requestCount).toBe(0);
  });

  it('does not try the read once the cycle has stopped, nor calls it deferred for budget', async () => {
    const { refreshed, source } = await refresh(null, [], { stopped: true });
    expect(refreshed.notes).toEqual(NO_NOTES);
    expect(refreshed.requests).toBeUndefined();
    expect(source.requestCount).toBe(0);
  });
});
