// Where a config's SQLite state file is: `state.path` resolved against the config file's directory,
// whatever the working directory.
import { dirname, resolve } from 'node:path';

export function resolveStatePath(statePath: string, configPath: string): string {
  return resolve(dirname(resolve(configPath)), statePath);
}
