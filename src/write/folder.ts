import { mkdir, stat } from 'node:fs/promises';
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
    throw new OperationalError(`cannot build into ${target}: it is a file, not a folder`, 'Choose another output folder with --out, or remove the file.');
  }
  const missing: string[] = [];
  let at = path.dirname(target);
  for (;;) {
    const info = await statIfAny(at);
    if (info) {
      if (!info.isDirectory()) throw new OperationalError(`cannot build into ${target}: ${at} is a file, not a folder`, 'Choose an output folder whose every parent is a folder (--out).');
      break;
    }
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const folder of missing) {
    await mkdir(folder).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw operational(error, `cannot create the folder ${folder}`);
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
