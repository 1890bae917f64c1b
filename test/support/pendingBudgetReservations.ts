// A stopgap for tests that run poll cycles through the DynamoDB state store: the DynamoDB budget adapter
// does not implement `reserve` and `release` yet (another branch adds them), so until it does, cycles
// reserve from an in-memory log. Once the adapter has both methods this does nothing; delete it then.
import { type BudgetCounterStore, InMemoryBudgetCounterStore } from '../../shared/api/budgetCounterStore.js';
import { DynamoBudgetCounterStore } from '../../shared/store/dynamo/dynamoBudgetCounterStore.js';

type Reservations = Partial<Pick<BudgetCounterStore, 'reserve' | 'release'>>;

export function lendReservationsToDynamoBudget(): void {
  const prototype = DynamoBudgetCounterStore.prototype as unknown as Reservations;
  if (typeof prototype.reserve === 'function' && typeof prototype.release === 'function') return;
  const memory = new InMemoryBudgetCounterStore();
  prototype.reserve = (...args) => memory.reserve(...args);
  prototype.release = (...args) => memory.release(...args);
}
