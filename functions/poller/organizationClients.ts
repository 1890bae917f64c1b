// One Admin API client per organization and container, so the connection pool stays warm between
// invocations; each draws on the token's budget shared through DynamoDB. And the identity of each
// organization's token, by which the organizations sharing one are counted (shared/poll/organizationsOnToken.ts).
import { AdminApiClient } from '../../shared/api/adminApiClient.js';
import type { BudgetCounterStore } from '../../shared/api/budgetCounterStore.js';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import { tokenIdentity } from '../../shared/api/tokenIdentity.js';
import { jsonPath } from '../../shared/config/configProblems.js';
import type { Config, OrganizationConfig } from '../../shared/config/configSchema.js';
import { SecretLookupError, SecretNotSetError } from '../../shared/config/errors.js';
import { secretRefKey } from '../../shared/config/secretRef.js';
import type { SecretResolver } from '../../shared/config/secretResolver.js';
import { AWS_BUDGET_WAIT_MS } from '../../shared/contracts/awsPollSettings.js';

export class OrganizationClients {
  readonly #clients = new Map<string, { token: string; client: AdminApiClient }>();

  constructor(
    private readonly config: Pick<Config, 'api' | 'organizations'>,
    private readonly secrets: SecretResolver,
    private readonly budgetCounters: BudgetCounterStore,
  ) {}

  /** Its place in the config, in the notation of every config message, e.g. `$.organizations[1].token`. */
  #tokenPath(organization: OrganizationConfig): string {
    const index = this.config.organizations.findIndex(({ id }) => id === organization.id);
    return jsonPath(['organizations', index, 'token']);
  }

  async clientFor(organization: OrganizationConfig): Promise<AdminApiClient> {
    const token = await this.secrets.resolve(organization.token, this.#tokenPath(organization));
    const cached = this.#clients.get(organization.id);
    // A rotated token gets a fresh client; the old pool is closed rather than leaked.
    if (cached?.token === token) return cached.client;
    await cached?.client.close();
    const client = new AdminApiClient({
      baseUrl: this.config.api.baseUrl,
      organizationId: organization.id,
      organizationName: organization.name,
      token,
      budget: new RequestBudget({
        token,
        requestsPerMinute: this.config.api.requestsPerMinute,
        store: this.budgetCounters,
        maxWaitMs: AWS_BUDGET_WAIT_MS,
      }),
    });
    this.#clients.set(organization.id, { token, client });
    return client;
  }

  /**
   * The identity of the organization's token: the key its budget is counted under (shared/api/tokenIdentity.ts),
   * never the token. The tokens come from the resolver's cache (one secret read per container and five
   * minutes, whichever organization asked), so counting the others costs no Secrets Manager call of its own.
   */
  async tokenIdentityOf(organization: OrganizationConfig): Promise<string> {
    try {
      return tokenIdentity(await this.secrets.resolve(organization.token, this.#tokenPath(organization)));
    } catch (error) {
      if (!(error instanceof SecretNotSetError || error instanceof SecretLookupError)) throw error;
      // Another organization's token not put yet (or not readable now) must not fail this organization's
      // cycle. Its own cycles cannot run without it, so it draws on no budget: counted by its reference, it
      // stays apart from every token that did resolve, and joins its token's count once it is put.
      return `ref#${secretRefKey(organization.token)}`;
    }
  }
}
