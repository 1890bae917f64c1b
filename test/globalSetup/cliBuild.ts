// Vitest global setup: compiles the CLI (bin/buildCli.mjs) once before the tests that start it as a
// process, so they never run a dist/cli.js older than the TypeScript being tested.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const BUILD_SCRIPT = fileURLToPath(new URL('../../bin/buildCli.mjs', import.meta.url));

/** Asynchronous, so that it runs while DynamoDB Local's JVM starts (see system.ts). */
export async function buildCli(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [BUILD_SCRIPT]);
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`bin/buildCli.mjs failed:\n${stderr ?? String(error)}`);
  }
}
