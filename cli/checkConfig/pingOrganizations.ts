// `check-config --ping`: one authenticated request per organization (GET /establishments, the cheapest
// listing), to prove the base URL, the token and the organization id work together.
import { AdminApiClient } from '../../shared/api/adminApiClient.js';
import type { Config } from '../../shared/config/configSchema.js';
import { apiTargetOf, describeApiFailure } from '../../shared/config/explainApiFailure.js';
import { createUndiciHttpClient } from '../../shared/http/undiciHttpClient.js';

export type PingResult =
  | { organization: string; ok: true; establishments: number }
  /** `failure`: the one failure line every command prints for it, the organization first. */
  | { organization: string; ok: false; failure: string };

/** A ping is a question, not a poll: one retry at most, and an answer within seconds. */
const PING_RETRY = { maxAttempts: 2, maxElapsedMs: 5_000 };
const PING_TIMEOUTS = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000 };

export async function pingOrganizations(config: Config, env: NodeJS.ProcessEnv): Promise<PingResult[]> {
  return Promise.all(
    config.organizations.map(async (organization, index): Promise<PingResult> => {
      const client = new AdminApiClient({
        baseUrl: config.api.baseUrl,
        organizationId: organization.id,
        organizationName: organization.name,
        token: env[organization.token.env] ?? '',
        retry: PING_RETRY,
        timeouts: PING_TIMEOUTS,
        httpClient: createUndiciHttpClient,
      });
      try {
        const listing = await client.listEstablishments();
        return { organization: organization.name, ok: true, establishments: listing.records.length };
      } catch (error) {
        const failure = describeApiFailure(error, apiTargetOf(config, index));
        return { organization: organization.name, ok: false, failure };
      } finally {
        await client.close();
      }
    }),
  );
}
