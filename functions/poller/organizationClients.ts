// One Admin API client per organization and container, so the connection pool stays warm between
// invocations; each draws on the token's budget shared through DynamoDB.
import { AdminApiClient } from '../../shared/api/adminApiClient.js';
import type { BudgetCounterStore } from '../../shared/api/budgetCounterStore.js';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import { jsonPath } from '../../shared/config/configProblems.js';
import type { Config, OrganizationConfig } from '../../shared/config/configSchema.js';
import type { SecretResolver } from '../../shared/config/secretResolver.js';
import { AWS_BUDGET_WAIT_MS } from '../../shared/contracts/awsPollSettings.js';

export class OrganizationClients {
  readonly #clients = new Map<string, { token: string; client: AdminApiClient }>();

  constructor(
    private readonly config: Pick<Config, 'api' | 'organizations'>,
    private readonly secrets: SecretResolver,
    private readonly budgetCounters: BudgetCounterStore,
  ) {}

  async clientFor(organization: OrganizationConfig): Promise<AdminApiClient> {
    // Its place in the config, in the notation of every config message, e.g. `$.organizations[1].token`.
    const index = this.config.organizations.findIndex(({ id }) => id === organization.id);
    const token = await this.secrets.resolve(organization.token, jsonPath(['organizations', index, 'token']));
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
}
