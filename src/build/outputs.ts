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
import { OutputStore } from '../write/store';

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
    const read = await readManifest(file, outDir);
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
    const file = this.manifestFile(outDir, 'spare');
    const read = file ? await readManifestLog(file) : undefined;
    // A log cut short may leave out files the folder holds: no spare is better than a wrong one.
    return read && Number.isFinite(read.records) ? read.manifest : undefined;
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
    // The spare's log is the previous output's, as it was before this build appends to it. A
    // spare log is never wrong for long: it names its folder's inode, which a swap changes.
    const spareFile = this.manifestFile(outDir, 'spare') as string;
    if (spare && this.manifests.get(file)?.manifest === spare) {
      // Whole or not at all: a reader finds the old log or the new one.
      const temporary = `${spareFile}.${process.pid}.tmp`;
      await copyFile(file, temporary)
        .then(() => rename(temporary, spareFile))
        .catch(() => Promise.all([rm(temporary, { force: true }), rm(spareFile, { force: true })]));
    }
    const known = this.manifests.get(file);
    if (manifest && known?.manifest !== manifest) this.manifests.set(file, await writeManifest(file, manifest, known));
  }
}
