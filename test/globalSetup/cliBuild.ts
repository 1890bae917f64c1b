// Vitest global setup: compiles the CLI (bin/buildCli.mjs) once before the tests that start it as a
// process, so they never run a dist/cli.js older than the TypeScript being tested.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BUILD_SCRIPT = fileURLToPath(new URL('../../bin/buildCli.mjs', import.meta.url));

export default function setup(): void {
  execFileSync(process.execPath, [BUILD_SCRIPT], { stdio: ['ignore', 'inherit', 'inherit'] });
}
