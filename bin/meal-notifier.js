#!/usr/bin/env node
// Starts the CLI compiled to JavaScript by bin/buildCli.mjs (run by `prepare` on npm install / npm ci).
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node.js 22.1+ keeps V8's compiled code on disk between runs (in the temp directory), so a command after
// the first starts without compiling the bundle again; Node.js 20 has no such cache and starts as before.
module.enableCompileCache?.();

const built = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(built)) {
  console.error('meal-notifier: the CLI is not built (dist/cli.js is missing); run `npm run build`');
  process.exit(1);
}
await import(built.href);
