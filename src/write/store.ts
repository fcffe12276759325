import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { digest } from '../load/digest';
import type { OutputManifest } from './manifest';

/**
 * The output files of the build cache (`.cache/site/outputs/`): every file a build writes into its
 * output folder, and its compressed copies, linked here under a name made of its path and content
 * hash. A clone that was given the build cache but no output folder (a CI job that keeps
 * `.cache/site/` between runs) takes from here the files its manifest says were made from the same
 * inputs, as a warm build takes them from the previous output: nothing is rendered again. Links,
 * not copies: the store costs no room while the output holds the same files.
 */
export class OutputStore {
  constructor(readonly dir: string) {}

  /** Where the store keeps `file` of the given content hash (its compressed copies beside it, with their suffix). */
  where(file: string, hash: string): string {
    return path.join(this.dir, digest(file, hash));
  }

  /**
   * Whether the store can make again the whole output `manifest` describes: each file present, with the
   * content its manifest names (read and hashed, as a file restored by a CI cache is not trusted
   * blindly). False when one is missing or differs: the output is then made again whole.
   */
  holds(manifest: OutputManifest): boolean {
    for (const [file, entry] of manifest.files) {
      try {
        if (digest(readFileSync(this.where(file, entry.hash))) !== entry.hash) return false;
      } catch {
        return false;
      }
    }
    return true;
  }

  /**
   * Links the files a build made (and their compressed copies) from the output folder into the
   * store, then removes what no output holds any more: a file linked nowhere else, of a content no
   * file of `manifest` has. Synchronous: thousands of links in a tight loop, as commit.ts does.
   */
  keep(outDir: string, manifest: OutputManifest, made: ReadonlySet<string>): void {
    if (made.size === 0) return;
    mkdirSync(this.dir, { recursive: true });
    let linked = 0;
    for (const file of made) {
      const entry = manifest.files.get(file);
      if (!entry) continue;
      const stored = this.where(file, entry.hash);
      for (const suffix of ['', '.br', '.gz']) {
        try {
          linkSync(path.join(outDir, file + suffix), stored + suffix);
          linked++;
        } catch {
          // Already kept (the same file, made again), or no such compressed copy.
        }
      }
    }
    const known = this.namesKnown();
    // Each output file has up to three names here (the file, .br, .gz): past that many and 64 more,
    // the dead outnumber the live.
    const most = 3 * manifest.files.size + 64;
    if (known !== undefined && known + linked <= most) this.countNames(known + linked);
    else this.countNames(this.sweep(manifest, most));
  }

  /**
   * The file that counts the names in the store: as many as the last listing found, and every link
   * made since by a build of this store.
   */
  private get countFile(): string {
    return `${this.dir}.names`;
  }

  /**
   * How many names the store holds, as counted; undefined when no count is kept. The count only
   * decides when the store is listed: a name another process linked makes it low, and the store
   * is then listed a few builds later than it might have been; a name removed by hand makes it
   * high, and it is listed sooner. Listing it at every build read tens of thousands of names to
   * find, nearly always, that nothing is to go.
   */
  private namesKnown(): number | undefined {
    try {
      const count = Number(readFileSync(this.countFile, 'utf8'));
      return Number.isSafeInteger(count) && count >= 0 ? count : undefined;
    } catch {
      return undefined;
    }
  }

  private countNames(names: number): void {
    try {
      writeFileSync(this.countFile, String(names));
    } catch {
      // Not kept: the next build lists the store.
    }
  }

  /**
   * Lists the store and, when it holds more than `most` names, removes the files of contents the
   * output no longer holds and no other folder links to. Returns the names left.
   */
  private sweep(manifest: OutputManifest, most: number): number {
    const names = readdirSync(this.dir);
    if (names.length <= most) return names.length;
    const live = new Set<string>();
    for (const [file, entry] of manifest.files) live.add(digest(file, entry.hash));
    let left = names.length;
    for (const name of names) {
      if (live.has(name.replace(/\.(br|gz)$/, ''))) continue;
      const absolute = path.join(this.dir, name);
      try {
        // Still linked from another output (the spare, another --out): kept while it is.
        if (statSync(absolute).nlink === 1) {
          rmSync(absolute, { force: true });
          left--;
        }
      } catch {
        // Gone meanwhile.
        left--;
      }
    }
    return left;
  }
}
