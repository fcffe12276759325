import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Lang } from '../shared/lang';
import type { IndexedDocument, TermTable } from './shardIndex';

/** One document's counted terms as a shard's file keeps them: its terms by their text, not their number in a table. */
export interface KeptDocument {
  url: string;
  /** What it was counted from (the `counted` inputs: code and fields, as one string), compared whole. */
  inputs: string;
  id: string;
  stored: Record<string, string>;
  lengths: number[];
  /** For each indexed field, its terms in the order first met, joined by newlines (a term holds none). */
  terms: string[];
  counts: number[][];
}

/**
 * The counted terms of each search shard's documents, kept in the build cache one file per shard
 * (`search/<lang>-<shards>-<shard>.bin`), so that a shard made again for one edited article counts
 * that article alone in a build of its own, as a `site dev` session does with its memo: the other
 * documents are read back from the shard's file, each while its inputs are the very ones it was
 * counted from. A shard's file is read only when the shard is made again, and written anew then.
 * A file of another count of shards (the blog grew past a power of two) is removed when its
 * language's shards are next written.
 */
export class ShardTerms {
  /** Languages whose files of other counts were removed this build. */
  private readonly swept = new Set<string>();

  constructor(private readonly dir: string) {}

  /** The documents kept for a shard, by URL; none when it has no file or the file cannot be read. */
  read(lang: Lang, count: number, shard: number): Map<string, KeptDocument> {
    const kept = new Map<string, KeptDocument>();
    try {
      for (const document of deserialize(readFileSync(this.file(lang, count, shard))) as KeptDocument[])
        kept.set(document.url, document);
    } catch {
      // No file yet, or a damaged one: the shard's documents are counted.
    }
    return kept;
  }

  /** Writes a shard's documents anew, whole or not at all. */
  write(
    lang: Lang,
    count: number,
    shard: number,
    documents: readonly { url: string; inputs: string; document: IndexedDocument }[],
  ): void {
    mkdirSync(this.dir, { recursive: true });
    this.sweep(lang, count);
    const file = this.file(lang, count, shard);
    const temporary = `${file}.${process.pid}.tmp`;
    const kept = documents.flatMap(({ url, inputs, document }) => keptDocument(url, inputs, document) ?? []);
    writeFileSync(temporary, serialize(kept));
    renameSync(temporary, file);
  }

  private sweep(lang: Lang, count: number): void {
    if (this.swept.has(lang)) return;
    this.swept.add(lang);
    const own = `${lang}-${count}-`;
    for (const name of readdirSync(this.dir))
      if (name.startsWith(`${lang}-`) && !name.startsWith(own)) rmSync(path.join(this.dir, name), { force: true });
  }

  private file(lang: Lang, count: number, shard: number): string {
    return path.join(this.dir, `${lang}-${count}-${shard}.bin`);
  }
}

/**
 * A document as its shard's file keeps it; undefined for one with a term the file could not tell
 * apart (a newline in it), which is counted again.
 */
function keptDocument(url: string, inputs: string, document: IndexedDocument): KeptDocument | undefined {
  const { id, stored, lengths, table } = document;
  const terms: string[] = [];
  for (const ids of document.terms) {
    const texts = Array.from(ids, (term) => table.term(term));
    if (texts.some((text) => text.includes('\n'))) return undefined;
    terms.push(texts.join('\n'));
  }
  return { url, inputs, id, stored, lengths, terms, counts: document.counts.map((counts) => Array.from(counts)) };
}

/**
 * A kept document counted again into `table`: its terms numbered there in the order they were first
 * met, as counting its text would number them.
 */
export function keptIndexed(kept: KeptDocument, table: TermTable): IndexedDocument {
  return {
    id: kept.id,
    stored: kept.stored,
    lengths: kept.lengths,
    table,
    terms: kept.terms.map((terms) =>
      terms === '' ? new Uint32Array(0) : Uint32Array.from(terms.split('\n'), (term) => table.id(term)),
    ),
    counts: kept.counts.map((counts) => Uint32Array.from(counts)),
  };
}
