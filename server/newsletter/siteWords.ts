import type { z } from 'zod';
import type { Diagnostic } from '../../src/diagnostics/diagnostic';
import { OperationalError } from '../../src/diagnostics/failure';
import { loadJsonFile } from '../../src/load/json';
import { Navigation, Owner, SiteConfig, UiStrings } from '../../src/model/schema';
import { LANGUAGES, type Lang } from '../../src/shared/lang';
import { type Strings, UI_STRING_KEYS } from '../../src/shared/strings';

/**
 * The site-wide words the newsletter's pages and e-mails need, read from content/ (the same files
 * and schemas the build reads): the site's config, the owner, the navigation and the UI strings.
 * Never the articles: this is read by the server on a request, which must not wait for the whole
 * content to be read.
 */
export interface SiteWords {
  config: z.infer<typeof SiteConfig>;
  owner: z.infer<typeof Owner>;
  navigation: z.infer<typeof Navigation>;
  /** The UI strings file as written, both languages per key. */
  all: z.infer<typeof UiStrings>;
  strings: Record<Lang, Strings>;
}

export async function loadSiteWords(root: string): Promise<SiteWords> {
  const diagnostics: Diagnostic[] = [];
  const [config, owner, navigation, all] = await Promise.all([
    loadJsonFile({ root, diagnostics }, 'content/site.json', SiteConfig),
    loadJsonFile({ root, diagnostics }, 'content/owner.json', Owner),
    loadJsonFile({ root, diagnostics }, 'content/navigation.json', Navigation),
    loadJsonFile({ root, diagnostics }, 'content/strings.json', UiStrings),
  ]);
  if (!config || !owner || !navigation || !all) {
    const first = diagnostics[0];
    throw new OperationalError(
      `the newsletter cannot read the site's words from ${root}/content: ${first ? `${first.file}: ${first.message}` : 'a file is missing'}`,
      'Run "site check" and mend what it reports.',
    );
  }
  const strings = {} as Record<Lang, Strings>;
  for (const lang of LANGUAGES)
    strings[lang] = Object.fromEntries(UI_STRING_KEYS.map((key) => [key, all[key][lang] ?? ''])) as Strings;
  return { config, owner, navigation, all, strings };
}

/** A UI string with its `{name}` slots filled. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (slot, name: string) => values[name] ?? slot);
}
