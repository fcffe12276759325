import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { processRunning } from '../write/folder';

/**
 * Output folders whose manifest logs the cache keeps (`output-<id>.log` and its `spare-<id>.log`),
 * the most recently written first. A build into a folder whose log is gone writes every file, as
 * a first build there does; meanwhile a log grows with the site's output, and one is made for
 * every folder ever built into (`--out`, and each test's temporary folder).
 */
export const OUTPUT_LOGS_KEPT = 8;

/**
 * A file being written whole under a temporary name: `<name>.<pid>.tmp`, or
 * `<name>.<pid>.<thread>.tmp` from a worker thread.
 */
const TEMPORARY = /\.(\d+)(?:\.\d+)?\.tmp$/;
/**
 * The cache's folders whose files are written under a temporary name first: the index of compiled
 * bodies, search shards' terms, share cards.
 */
const SWEPT_FOLDERS = ['bodies', 'search', 'cards'];
/** A manifest log of one output folder: `output-<id>.log`, or the log of its spare. */
const OUTPUT_LOG = /^(?:output|spare)-(.+)\.log$/;

/**
 * Keeps the build cache (`.cache/site/`) from growing without bound over months of builds:
 * removes the temporary files of processes that ended while writing one (a Ctrl-C, a killed
 * `site dev`), in the cache folder and its SWEPT_FOLDERS (`bodies/`, `search/`, `cards/`), and the
 * manifest logs of all but the
 * OUTPUT_LOGS_KEPT output folders written most recently, besides the one this build wrote
 * (`current`, the path of its log), which a later build of the same session appends to. A running
 * process's temporaries and this process's are left alone, and so is every other file.
 */
export async function sweepCache(cacheDir: string, current: string): Promise<void> {
  const [top, ...folders] = await Promise.all([
    list(cacheDir),
    ...SWEPT_FOLDERS.map((folder) => list(path.join(cacheDir, folder))),
  ]);
  // Thousands of names in the folders, and few temporaries: only those are made into paths.
  const temporaries = (names: readonly string[]) => names.filter((name) => name.endsWith('.tmp'));
  const inFolders = SWEPT_FOLDERS.flatMap((folder, i) =>
    temporaries(folders[i] ?? []).map((name) => path.join(cacheDir, folder, name)),
  );
  const abandoned = [...temporaries(top).map((name) => path.join(cacheDir, name)), ...inFolders].filter((file) => {
    const pid = Number(TEMPORARY.exec(file)?.[1] ?? Number.NaN);
    return !Number.isNaN(pid) && pid !== process.pid && !processRunning(pid);
  });
  await Promise.all(
    [...abandoned, ...(await unusedLogs(cacheDir, top, path.basename(current)))].map((file) =>
      rm(file, { force: true }).catch(() => undefined),
    ),
  );
}

/**
 * The manifest logs of the output folders beyond the OUTPUT_LOGS_KEPT most recently written, but
 * never the current one's.
 */
async function unusedLogs(cacheDir: string, names: readonly string[], current: string): Promise<string[]> {
  const logs = names.filter((name) => OUTPUT_LOG.test(name));
  if (logs.length <= OUTPUT_LOGS_KEPT) return [];
  const written = new Map<string, number>();
  await Promise.all(
    logs.map(async (name) => {
      const id = OUTPUT_LOG.exec(name)?.[1] ?? name;
      const time = await stat(path.join(cacheDir, name)).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      written.set(id, Math.max(written.get(id) ?? 0, time));
    }),
  );
  const kept = new Set([
    OUTPUT_LOG.exec(current)?.[1],
    ...[...written]
      .sort((a, b) => b[1] - a[1])
      .slice(0, OUTPUT_LOGS_KEPT)
      .map(([id]) => id),
  ]);
  return logs.filter((name) => !kept.has(OUTPUT_LOG.exec(name)?.[1] ?? name)).map((name) => path.join(cacheDir, name));
}

async function list(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}
