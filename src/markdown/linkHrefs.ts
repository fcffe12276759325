import type { CompiledMarkdown, Reference } from './compile';

/** The hrefs of the links among `references`, as written, in their order. */
export function linkHrefs(references: readonly Reference[]): string[] {
  const hrefs: string[] = [];
  for (const ref of references) if (ref.kind === 'link') hrefs.push(ref.href);
  return hrefs;
}

/**
 * A body that keeps its links' hrefs apart from its references (`linkHrefs` of them): read back
 * from the markdown cache, a body's references are parsed only when asked for, and its hrefs,
 * which every check reads for every body (the paths its links lead to), are read without them.
 */
export interface KeptLinkHrefs {
  readonly linkHrefs: readonly string[];
}

/** The hrefs of a body's links: those it keeps, or those of its references. */
export function bodyLinkHrefs(body: Pick<CompiledMarkdown, 'references'> & Partial<KeptLinkHrefs>): readonly string[] {
  return body.linkHrefs ?? linkHrefs(body.references);
}
