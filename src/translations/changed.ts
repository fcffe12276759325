import { execFile } from 'node:child_process';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { isoDay } from '../shared/date';

const run = promisify(execFile);

/**
 * The day a content file last changed, "YYYY-MM-DD" (UTC): the day of the last commit that
 * touched it when the file is as committed, or of its last write when it has changes of its own
 * (or no git history is at hand). In a shallow clone, a file untouched by the commits it holds is
 * dated by the oldest of them: the day is then a bound, not the day itself.
 */
export async function changeDay(root: string, file: string, edited = false): Promise<string> {
  const written = async () => isoDay((await stat(path.join(root, file))).mtime);
  // Written while a session watched (site dev): no git to ask, a process each save.
  if (edited || !(await inRepository(root))) return written();
  try {
    // The file is a path, never a pattern (a category file named "[ab].json").
    const git = (args: string[]) =>
      run('git', ['--literal-pathspecs', '-C', root, ...args], { timeout: 10_000 }).then((r) => r.stdout.trim());
    if ((await git(['status', '--porcelain', '--', file])) !== '') return await written();
    const day = await git(['log', '-1', '--format=%cs', '--', file]);
    return /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : await written();
  } catch {
    return written();
  }
}

/** Folders found in a git repository: asked once a process (one found is not asked again). */
const repositories = new Set<string>();

/**
 * Whether git would find a repository for `root`: one named by `GIT_DIR`, or a `.git` (a folder,
 * or the file of a worktree or submodule) in it or in a folder above it, looked for from its real
 * path, as git looks (a root reached through a link may lie in a repository its link's path does
 * not). Without one, asking git would start a process (a copy of this one, its memory mapped
 * again) only to be told no. A folder found in none is looked at again on the next ask: a
 * session may see a repository made meanwhile.
 */
async function inRepository(root: string): Promise<boolean> {
  if (process.env.GIT_DIR) return true;
  const from = await realpath(root).catch(() => path.resolve(root));
  if (repositories.has(from)) return true;
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (
      await access(path.join(dir, '.git')).then(
        () => true,
        () => false,
      )
    ) {
      repositories.add(from);
      return true;
    }
    if (path.dirname(dir) === dir) return false;
  }
}

/**
 * `changeDay`, asked once per file and content: a session asks again only for a file that
 * changed, and asks no git of a file it saw written (`edited`, by absolute path).
 */
export function changeDays(
  root: string,
  edited: (absolute: string) => boolean = () => false,
): (file: string, hash: string) => Promise<string> {
  const known = new Map<string, Promise<string>>();
  return (file, hash) => {
    const key = `${file} ${hash}`;
    let day = known.get(key);
    if (!day) {
      day = changeDay(root, file, edited(path.join(root, file)));
      known.set(key, day);
    }
    return day;
  };
}
