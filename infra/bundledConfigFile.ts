// Where a function's compiled config waits for esbuild: a file named by its content's SHA-256 in the
// system's temporary directory, which esbuild injects (shared/contracts/bundledConfig.ts). Passed on
// esbuild's command line instead, a config of some 170 organizations failed the synth with `spawnSync npx
// E2BIG`, since the OS caps one argument at 128 KB.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../shared/config/configSchema.js';
import { bundledConfigModule, type ConfigFacts } from '../shared/contracts/bundledConfig.js';

/** Writes the module that carries `config` into a bundle, and returns its absolute path. */
export function writeBundledConfigFile(config: Config, facts: ConfigFacts = {}): string {
  const text = bundledConfigModule(config, facts);
  const name = `${createHash('sha256').update(text).digest('hex')}.mjs`;
  const dir = join(tmpdir(), 'meal-order-notifier-bundled-config');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  // Written aside, then renamed over it: a rename is atomic, so esbuild in another synth writing the same
  // file at once never reads it truncated or half written (a bundle with no config: "NOTIFIER_CONFIG is
  // not set" at the function's first cold start).
  const aside = `${path}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(aside, text);
  renameSync(aside, path);
  return path;
}
