// Whether the runner will be able to open its SQLite state file: the file writable if it exists, its
// directory writable (SQLite writes `-wal` and `-shm` files beside it), or, if the directory does not
// exist yet, creatable by this user. One problem naming the path at fault and the fix, or none.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { ConfigProblem } from '../../shared/config/errors.js';

const PATH = '$.state.path';
const ELSEWHERE = 'or point state.path elsewhere';

/** @param statePath absolute, as the runner resolves it (statePathOf) */
export async function findStatePathProblem(statePath: string): Promise<ConfigProblem | undefined> {
  const user = describeUser();
  const owner = userName() ?? '<user>';
  const problem = (message: string): ConfigProblem => ({ path: PATH, message: `${message}, ${ELSEWHERE}` });
  const directory = dirname(statePath);
  const found = await statOf(statePath);
  if (found === 'denied') {
    return problem(
      `${statePath} cannot be reached: ${user} may not enter a directory above it; give that user access`,
    );
  }
  if (found !== 'absent') {
    if (found.isDirectory()) {
      return {
        path: PATH,
        message: `${statePath} is a directory; state.path names the SQLite file, e.g. ${join(statePath, 'state.db')}`,
      };
    }
    if (!(await canWrite(statePath, constants.W_OK))) {
      return problem(
        `${statePath} is not writable by ${user}; make that user its owner (sudo chown ${owner} ${statePath})`,
      );
    }
    if (!(await canWrite(directory, constants.W_OK | constants.X_OK))) {
      return problem(
        `directory ${directory} is not writable by ${user}, and SQLite writes its -wal and -shm files next to ${statePath}; make that user its owner (sudo chown ${owner} ${directory})`,
      );
    }
    return undefined;
  }
  // Not there yet: the runner creates the file, and the directories missing above it, at start-up.
  for (let ancestor = directory; ; ancestor = dirname(ancestor)) {
    const info = await statOf(ancestor);
    if (info === 'absent') {
      if (dirname(ancestor) === ancestor) return undefined;
      continue;
    }
    if (info === 'denied') {
      return problem(
        `${ancestor} cannot be reached by ${user}, so ${statePath} cannot be created; give that user access`,
      );
    }
    if (!info.isDirectory()) {
      return problem(
        `${ancestor} is a file, not a directory, so ${statePath} cannot be created; move that file`,
      );
    }
    if (await canWrite(ancestor, constants.W_OK | constants.X_OK)) return undefined;
    if (ancestor === directory) {
      return problem(
        `directory ${directory} is not writable by ${user}; make that user its owner (sudo chown ${owner} ${directory})`,
      );
    }
    return problem(
      `${directory} does not exist and ${user} cannot create it in ${ancestor}; create it for that user (sudo install -d -o ${owner} ${directory})`,
    );
  }
}

/** The stat of `path`; absent also when a component above it is a file (ENOTDIR), found as the walk goes up. */
async function statOf(path: string): Promise<Awaited<ReturnType<typeof stat>> | 'absent' | 'denied'> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'absent';
    if (code === 'EACCES' || code === 'EPERM') return 'denied';
    throw error;
  }
}

async function canWrite(path: string, mode: number): Promise<boolean> {
  try {
    await access(path, mode);
    return true;
  } catch {
    return false;
  }
}

function describeUser(): string {
  const name = userName();
  const uid = process.getuid?.();
  if (name === undefined) return uid === undefined ? 'this user' : `this user (uid ${uid})`;
  return uid === undefined ? `user ${name}` : `user ${name} (uid ${uid})`;
}

function userName(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for the uid, as in some containers.
    return undefined;
  }
}
