// The request budget a state file holds, for a one-shot command beside a running poller: opened as it is,
// without creating or migrating anything, so that the command's requests count in the poller's minute.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { BudgetCounterStore } from '../../api/budgetCounterStore.js';
import { SqliteBudgetCounterStore } from './sqliteBudgetCounterStore.js';
import { guarded } from './sqliteErrors.js';
import { SCHEMA_VERSION } from './sqliteSchema.js';

export interface StateFileBudget {
  counters: BudgetCounterStore;
  close(): void;
}

/**
 * The budget counters of the state file at `path`, or undefined where there is none to share: no file yet
 * (no poller has run), or one of another schema version (a poller of another version keeps its own).
 */
export function openStateFileBudget(path: string): StateFileBudget | undefined {
  if (!existsSync(path)) return undefined;
  const db = guarded('budget', undefined, () => new Database(path, { fileMustExist: true }));
  try {
    return guarded('budget', undefined, () => {
      db.pragma('busy_timeout = 5000');
      if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) {
        db.close();
        return undefined;
      }
      return { counters: new SqliteBudgetCounterStore(db), close: () => db.close() };
    });
  } catch (error) {
    db.close();
    throw error;
  }
}
