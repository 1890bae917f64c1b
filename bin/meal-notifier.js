#!/usr/bin/env node
// Starts the CLI compiled to JavaScript by bin/buildCli.mjs (run by `prepare` on npm install / npm ci).
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(built)) {
  console.error('meal-notifier: the CLI is not built (dist/cli.js is missing); run `npm run build`');
  process.exit(1);
}
await import(built.href);
