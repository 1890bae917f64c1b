#!/usr/bin/env node
// Starts the CLI compiled to JavaScript by bin/buildCli.mjs (run by `prepare` on npm install / npm ci),
// once it has checked that this Node.js is one the CLI runs on.
import { existsSync } from 'node:fs';
import module from 'node:module';

// The Node.js floor, package.json's `engines` (test/e2e/nodeVersion.test.ts holds the two together). Checked
// before the bundle is imported: on an older Node.js its dependencies fail with a stack trace that does not
// say what is wrong. This file stays plain enough for any Node.js that runs ES modules to get this far.
const needed = '22.12';
const atLeast = (version, floor) => {
  const [major, minor = 0, patch = 0] = version.split('.').map(Number);
  const [floorMajor, floorMinor = 0, floorPatch = 0] = floor.split('.').map(Number);
  if (major !== floorMajor) return major > floorMajor;
  if (minor !== floorMinor) return minor > floorMinor;
  return patch >= floorPatch;
};
if (!atLeast(process.versions.node, needed)) {
  console.error(`meal-notifier needs Node.js ${needed} or later; this is Node.js ${process.versions.node}.`);
  process.exit(1);
}

// Node.js keeps V8's compiled code on disk between runs (in the temp directory), so a command after the
// first starts without compiling the bundle again.
module.enableCompileCache();

const built = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(built)) {
  console.error('meal-notifier: the CLI is not built (dist/cli.js is missing); run `npm run build`');
  process.exit(1);
}
await import(built.href);
