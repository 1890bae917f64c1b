import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../../shared/api/envelope.js';
import { type RunningSimulator, startSimulator } from '../../../simulator/startSimulator.js';
import { call, T0 } from './simulatorHttp.js';

let sim: RunningSimulator;
const now = T0;

beforeAll(async () => {
  sim = await startSimulator({ clock: () => now, scenario: false });
});
afterAll(() => sim.close());

describe('simulator authentication and routing', () => {
  it('answers 400 for a missing organization header before looking at the token', async () => {
    for (const token of [sim.token, 'wrong', null]) {
      const answer = await call(sim, '/orders', { organization: null, token });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        success: false,
        message: expect.stringContaining('X-SERVICE-ORGANIZATION'),
      });
    }
  });

  it('answers 401 for a missing or unknown bearer token', async () => {
    expect((await call(sim, '/orders', { token: null })).status).toBe(401);
    const bad = await call(sim, '/orders', { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ success: false, message: 'Unauthenticated.' });
  });

  it('answers 403 for an organization the token may not read, and for an unknown organization', async () => {
    const [, second] = sim.organizations;
    if (!second) throw new Error('the default world has a second organization');
    const other = await call(sim, '/orders', { organization: second.id });
    expect(other.status).toBe(403);
    expect(ErrorBodySchema.parse(other.body).success).toBe(false);
    expect(
      (await call(sim, '/orders', { organization: '9b2f3c1e-0000-4000-8000-000000000000' })).status,
    ).toBe(403);
    expect((await call(sim, '/orders', { organization: 'not-a-uuid' })).status).toBe(403);
  });

  it('lets the second organization be read with its own token, and serves it its own data', async () => {
    const [first, second] = sim.organizations;
    const secondToken = sim.access
      .list()
      .find((grant) => second && grant.organizations.includes(second.id))?.token;
    if (!first || !second || !secondToken)
      throw new Error('the default world has two organizations and tokens');
    expect(second.name).not.toBe(first.name);
    const answer = await call(sim, '/establishments', { organization: second.id, token: secondToken });
    expect(answer.status).toBe(200);
    const uuids = answer.body.data.map((establishment: { uuid: string }) => establishment.uuid);
    expect(uuids).toEqual(second.world.establishments().map((establishment) => establishment.uuid));
    expect((await call(sim, '/establishments', { organization: first.id, token: secondToken })).status).toBe(
      403,
    );
  });

  it('grants and revokes access at runtime', async () => {
    const [, second] = sim.organizations;
    if (!second) throw new Error('no second organization');
    sim.access.grant(sim.token, second.id);
    expect((await call(sim, '/products', { organization: second.id })).status).toBe(200);
    sim.access.revoke(sim.token, second.id);
    expect((await call(sim, '/products', { organization: second.id })).status).toBe(403);
    sim.access.grant('temporary', sim.organization.id);
    expect((await call(sim, '/products', { token: 'temporary' })).status).toBe(200);
    sim.access.revoke('temporary');
    expect((await call(sim, '/products', { token: 'temporary' })).status).toBe(401);
  });

  it('answers 404 in the envelope for a path outside the API', async () => {
    for (const path of ['/orders/123', '/customers', '']) {
      const answer = await call(sim, path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ success: false, message: expect.stringContaining('could not be found') });
    }
  });

  it('answers 405 to any method but GET on a known route', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await call(sim, '/orders', { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('GET');
      expect(answer.body.success).toBe(false);
    }
  });

  it('accepts a trailing slash on a route', async () => {
    expect((await call(sim, '/establishments/')).status).toBe(200);
  });
});
