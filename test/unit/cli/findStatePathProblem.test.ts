import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findStatePathProblem } from '../../../cli/checkConfig/findStatePathProblem.js';

let dir: string;
// Permission bits do not stop root, so the read-only cases only mean something for another user.
const root = process.getuid?.() === 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-path-'));
});

afterAll(async () => {
  await chmod(join(dir, 'locked'), 0o700).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('findStatePathProblem', () => {
  it('accepts a file that does not exist yet, in directories the runner can create', async () => {
    expect(await findStatePathProblem(join(dir, 'new', 'deeper', 'state.db'))).toBeUndefined();
  });

  it('accepts an existing, writable state file', async () => {
    await writeFile(join(dir, 'state.db'), '');
    expect(await findStatePathProblem(join(dir, 'state.db'))).toBeUndefined();
  });

  it('names a file standing where a directory must be, and the fix', async () => {
    await writeFile(join(dir, 'blocker'), '');
    const path = join(dir, 'blocker', 'sub', 'state.db');
    expect(await findStatePathProblem(path)).toEqual({
      path: '$.state.path',
      message: `${join(dir, 'blocker')} is a file, not a directory, so ${path} cannot be created; move that file, or point state.path elsewhere`,
    });
  });

  it('names a directory given as the state file, and what to write instead', async () => {
    await mkdir(join(dir, 'data'));
    expect((await findStatePathProblem(join(dir, 'data')))?.message).toBe(
      `${join(dir, 'data')} is a directory; state.path names the SQLite file, e.g. ${join(dir, 'data', 'state.db')}`,
    );
  });

  it.skipIf(root)('names a directory this user cannot write, with the command that fixes it', async () => {
    await mkdir(join(dir, 'locked'));
    await chmod(join(dir, 'locked'), 0o500);
    const problem = await findStatePathProblem(join(dir, 'locked', 'sub', 'state.db'));
    expect(problem?.message).toMatch(
      new RegExp(
        `^${join(dir, 'locked', 'sub')} does not exist and user \\S+ \\(uid \\d+\\) cannot create it in ${join(dir, 'locked')}; create it for that user \\(sudo install -d -o \\S+ ${join(dir, 'locked', 'sub')}\\), or point state.path elsewhere$`,
      ),
    );
  });
});
