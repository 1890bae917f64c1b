// The poll cycle's ports that the in-memory fakes implement, imported in one place from where they live
// now (shared/poll/pollOrganization.ts): when OrdersSource and CycleBudget move, only this file changes.
export type { CycleBudget, OrdersSource } from '../../shared/poll/pollOrganization.js';
