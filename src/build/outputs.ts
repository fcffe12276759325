import { copyFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { digest } from '../load/digest';
import type { PagePlan } from '../render/plan';
import {
  type ManifestLog,
  type OutputManifest,
  readManifest,
  readManifestLog,
  stillDescribes,
  writeManifest,
} from '../write/manifest';
import { type LogPrefix, logPrefix, readFirstRecord, rewriteLog } from '../write/recordLog';
import { OutputStore } from '../write/store';

/**
 * The record a spare's log holds when the spare is what the output's log said before its last
 * build appended to it: the log's first bytes (see `LogPrefix`), read back from the output's log.
 */
type SpareRecord = ['prefix', LogPrefix];

/**
 * The output folders a session builds into, each with the manifest of what it holds (kept in the
 * build cache, one log per folder, and one for the spare a swap keeps beside it), and the page
 * plans of each output this session wrote. `site dev` and `site build` write different folders.
 */
export class OutputFolders {
  /** Each output folder's manifest, as its file in the build cache holds it. */
  private readonly manifests = new Map<string, ManifestLog>();
  /** The page plans each output this session wrote was made from, every one carried over or made (see `madeFrom`). */
  private readonly plansOf = new WeakMap<OutputManifest, readonly PagePlan[]>();

  /**
   * @param cacheDir the build cache's folder (none without the cache: every output is written whole)
   * @param save whether manifests are written
   * @param root the site's root: an output folder's log is named by its place from there, the same in every clone
   */
  constructor(
    private readonly cacheDir: string | undefined,
    private readonly save: boolean,
    private readonly root: string,
  ) {
    this.store = cacheDir ? new OutputStore(path.join(cacheDir, 'outputs')) : undefined;
  }

  /** The output files the build cache keeps (see store.ts). */
  readonly store: OutputStore | undefined;

  /**
   * The last output made into `outDir` (in this clone or in another whose build cache this one
   * was given), when the folder is not that output any more (a fresh clone has none) and the
   * store holds every file of it: a build then takes them from there. Its folder copies are not
   * kept: they are copied again.
   */
  async restorable(outDir: string): Promise<OutputManifest | undefined> {
    const file = this.manifestFile(outDir);
    const read = file && this.store ? await readManifestLog(file) : undefined;
    if (!read || !Number.isFinite(read.records) || !this.store?.holds(read.manifest)) return undefined;
    return { ...read.manifest, copies: {} };
  }

  /** Keeps in the store the files a build made into `outDir` (see `OutputStore.keep`). */
  keep(outDir: string, manifest: OutputManifest, made: ReadonlySet<string>): void {
    if (this.save) this.store?.keep(outDir, manifest, made);
  }

  /** The manifest of what the last build wrote into `outDir`, when that folder is still intact. */
  async previousOutput(outDir: string): Promise<OutputManifest | undefined> {
    const file = this.manifestFile(outDir);
    if (!file) return undefined;
    const known = this.manifests.get(file);
    if (known) return stillDescribes(known.manifest, outDir);
    // Read with the prefix the spare's log names, if it does: the spare's manifest then costs no log of its own.
    const read = await readManifest(file, outDir, await this.sparePrefix(outDir));
    // Kept as read: a build that changes nothing ends with this same manifest, and does not write it again.
    if (read) this.manifests.set(file, read);
    return read?.manifest;
  }

  /**
   * The page plans `manifest` was made from, when this session wrote it: a plan of a later build
   * that is one of these very objects, in the same place, has its page in that output from exactly
   * its inputs (plans are shared from build to build while nothing they read changed).
   */
  madeFrom(manifest: OutputManifest | undefined): readonly PagePlan[] | undefined {
    return manifest && this.plansOf.get(manifest);
  }

  /** Forgets what `outDir` holds (its manifest, here and in the build cache): the next build writes it whole. */
  async forgetOutput(outDir: string): Promise<void> {
    const file = this.manifestFile(outDir);
    if (!file) return;
    this.manifests.delete(file);
    await rm(file, { force: true });
  }

  /**
   * The manifest of the output kept beside `outDir` by the last swap (see `spareFolder`), when the
   * build cache has it.
   */
  async spareOutput(outDir: string): Promise<OutputManifest | undefined> {
    const file = this.manifestFile(outDir);
    const spareFile = this.manifestFile(outDir, 'spare');
    if (!file || !spareFile) return undefined;
    const prefix = await this.sparePrefix(outDir);
    if (prefix) {
      // What the output's log said before its last build appended to it, when it still begins so.
      const known = this.manifests.get(file)?.earlier;
      const same = known && known.prefix.bytes === prefix.bytes && known.prefix.hash === prefix.hash;
      return (same ? known : (await readManifestLog(file, prefix))?.earlier)?.manifest();
    }
    const read = await readManifestLog(spareFile);
    // A log cut short may leave out files the folder holds: no spare is better than a wrong one.
    return read && Number.isFinite(read.records) ? read.manifest : undefined;
  }

  /** The prefix of the output's log that the spare's log names, when it names one rather than holding a manifest. */
  private async sparePrefix(outDir: string): Promise<LogPrefix | undefined> {
    const spareFile = this.manifestFile(outDir, 'spare');
    const first = spareFile ? ((await readFirstRecord(spareFile)) as SpareRecord | undefined) : undefined;
    return Array.isArray(first) && first[0] === 'prefix' ? first[1] : undefined;
  }

  /**
   * One manifest per output folder: `site dev` and `site build` write to different folders; and
   * one for each one's spare. Named by the folder's place from the site's root: a clone given this
   * one's build cache finds it (see `restorable`).
   */
  manifestFile(outDir: string, kind: 'output' | 'spare' = 'output'): string | undefined {
    return (
      this.cacheDir &&
      path.join(this.cacheDir, `${kind}-${digest(path.relative(this.root, path.resolve(outDir))).slice(0, 12)}.log`)
    );
  }

  /**
   * Records what a build wrote into `outDir`: its manifest, and the manifest of the output a swap
   * kept as the spare (the previous one, whose log it copies), with the page plans it was made from.
   */
  async record(
    outDir: string,
    manifest: OutputManifest | undefined,
    spare?: OutputManifest,
    plans?: readonly PagePlan[],
  ): Promise<void> {
    const file = this.manifestFile(outDir);
    if (!this.save || !file) return;
    if (manifest && plans) this.plansOf.set(manifest, plans);
    // The spare's manifest is the previous output's: what the output's log says before this build
    // writes to it. A build that appends names that log's bytes as they are now (`sparePrefix`);
    // one that writes the log anew copies it first. Kept before the output's log changes, whole
    // or not at all: a reader finds the old spare log or the new one. A spare log is never wrong
    // for long: it names its folder's inode, which a swap changes.
    const spareFile = this.manifestFile(outDir, 'spare') as string;
    const known = this.manifests.get(file);
    const keepSpare = spare !== undefined && known?.manifest === spare;
    const keep = async (anew: boolean) => {
      const temporary = `${spareFile}.${process.pid}.tmp`;
      try {
        if (anew) {
          await copyFile(file, temporary);
          await rename(temporary, spareFile);
        } else {
          const prefix = await logPrefix(file);
          if (!prefix) throw new Error('no log to name');
          await rewriteLog(spareFile, [['prefix', prefix] satisfies SpareRecord]);
        }
      } catch {
        // No spare log: the next swap starts from a new folder.
        await Promise.all([rm(temporary, { force: true }), rm(spareFile, { force: true })]);
      }
    };
    if (manifest && known?.manifest !== manifest)
      this.manifests.set(file, await writeManifest(file, manifest, known, keepSpare ? keep : undefined));
    else if (keepSpare) await keep(false);
  }
}
