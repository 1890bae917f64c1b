// One Admin API client per organization and container, so the connection pool stays warm between
// invocations; each draws on the token's budget shared through DynamoDB.
import { AdminApiClient } from '../../shared/api/adminApiClient.js';
import type { BudgetCounterStore } from '../../shared/api/budgetCounterStore.js';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import type { ApiConfig, OrganizationConfig } from '../../shared/config/configSchema.js';
import type { SecretResolver } from '../../shared/config/secretResolver.js';
import { AWS_BUDGET_WAIT_MS } from '../../shared/contracts/awsPollSettings.js';

export class OrganizationClients {
  readonly #clients = new Map<string, { token: string; client: AdminApiClient }>();

  constructor(
    private readonly api: ApiConfig,
    private readonly secrets: SecretResolver,
    private readonly budgetCounters: BudgetCounterStore,
  ) {}

  async clientFor(organization: OrganizationConfig): Promise<AdminApiClient> {
    const token = await this.secrets.resolve(organization.token, `organizations[${organization.id}].token`);
    const cached = this.#clients.get(organization.id);
    // A rotated token gets a fresh client; the old pool is closed rather than leaked.
    if (cached?.token === token) return cached.client;
    await cached?.client.close();
    const client = new AdminApiClient({
      baseUrl: this.api.baseUrl,
      organizationId: organization.id,
      organizationName: organization.name,
      token,
      budget: new RequestBudget({
        token,
        requestsPerMinute: this.api.requestsPerMinute,
        store: this.budgetCounters,
        maxWaitMs: AWS_BUDGET_WAIT_MS,
      }),
    });
    this.#clients.set(organization.id, { token, client });
    return client;
  }
}
