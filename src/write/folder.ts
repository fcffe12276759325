import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { OperationalError, operational } from '../diagnostics/failure';

/**
 * Makes sure the output folder can be made: its parents exist (missing ones are created, one level
 * at a time: Node's recursive mkdir never returns for some paths, such as one under /proc), each
 * is a folder, and the output folder itself, if it exists, is a folder. The output folder is not
 * created: a build that fails leaves the disk as it was.
 */
export async function prepareOutputFolder(outDir: string): Promise<void> {
  const target = path.resolve(outDir);
  const existing = await statIfAny(target);
  if (existing && !existing.isDirectory()) {
    throw new OperationalError(
      `cannot build into ${target}: it is a file, not a folder`,
      'Choose another output folder with --out, or remove the file.',
    );
  }
  const missing: string[] = [];
  let at = path.dirname(target);
  for (;;) {
    const info = await statIfAny(at);
    if (info) {
      if (!info.isDirectory())
        throw new OperationalError(
          `cannot build into ${target}: ${at} is a file, not a folder`,
          'Choose an output folder whose every parent is a folder (--out).',
        );
      break;
    }
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const folder of missing) {
    await mkdir(folder).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw operational(error, `cannot create the folder ${folder}`);
    });
  }
}

/** The folder's or file's stat; undefined when nothing is there (or a parent is a file). */
async function statIfAny(file: string) {
  try {
    return await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw operational(error, `cannot look at ${file}`);
  }
}

/**
 * A new folder for a build to write its output into before it is swapped in, beside `outDir`,
 * named by the build's process: `removeAbandonedStaging` knows it by that name.
 */
export function stagingFolder(outDir: string, suffix = ''): string {
  return path.join(path.dirname(path.resolve(outDir)), `.dist-new-${process.pid}-${Date.now()}${suffix}`);
}

const STAGING = /^\.dist-new-(\d+)-\d+(?:-base)?$/;

/**
 * Removes the staging folders (see `stagingFolder`) that builds no longer running left beside
 * `outDir`: a build stopped midway (Ctrl-C, a killed process, a crash) leaves its own, as large as
 * the output, and nothing else would ever remove it. The folders of a process still running
 * (another build) and of this one are left alone; so is everything else.
 */
export async function removeAbandonedStaging(outDir: string): Promise<void> {
  const parent = path.dirname(path.resolve(outDir));
  const names = await readdir(parent).catch(() => []);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(STAGING.exec(name)?.[1] ?? Number.NaN);
      if (Number.isNaN(pid) || pid === process.pid || processRunning(pid)) return;
      // Another build may be removing it too: what is gone is gone.
      await rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined);
    }),
  );
}

/** Whether a process with this id runs (one of another user's too). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
