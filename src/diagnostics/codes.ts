/**
 * The catalogue of content diagnostics: every rule has a stable code, its severity, a title, the
 * message it prints (a function of the case's arguments) and a hint (the same for every case, or
 * a function of the arguments where it can say more: "Did you mean ...?"). Call sites pass a code,
 * a place and the arguments (`diagnostic()` in ./diagnostic); no message is written anywhere else.
 * docs/checking.md documents each code and its severity; a test fails when the two disagree.
 */
import type { Lang } from '../shared/lang';

export type Severity = 'error' | 'warning';

/** One code of the catalogue; `A` is what its message and hint are made from. */
export interface DiagnosticDefinition<A> {
  severity: Severity;
  /** What went wrong, in a few words, the same for every case. */
  title: string;
  /** What happened in this case: one line, starting lower-case, without a final full stop. */
  message: (args: A) => string;
  /** What to do about it: one or two sentences. */
  hint: string | ((args: A) => string);
}

/** Infers a definition's arguments from its `message`, and types `hint` with the same. */
function define<A>(definition: DiagnosticDefinition<A>): DiagnosticDefinition<A> {
  return definition;
}

const LANGUAGE = { en: 'English', pt: 'Portuguese' } as const;

/** "the title, "Setup" and the opening": names joined as a sentence lists them. */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString('en')} KiB`;
}

/** ", at "…", where it redirects": the address that answered, when redirects led there from the link's. */
function redirected(at: string | undefined): string {
  return at === undefined ? '' : ` (at "${at}", where it redirects)`;
}

/** The Wayback Machine's list of archived copies of an address: named for the owner to open, never fetched. */
function wayback(url: string): string {
  return `https://web.archive.org/web/*/${url}`;
}

/** What the system said when a file could not be read, in words: a dangling link, a permission, … */
function unreadable(errno: string | undefined, error: string): string {
  if (errno === 'ENOENT') return 'it does not exist (or is a link to a file that does not)';
  if (errno === 'ELOOP') return 'it is a link that leads back to itself';
  if (errno === 'EACCES' || errno === 'EPERM') return 'permission denied';
  if (errno === 'EISDIR') return 'it is a folder';
  return error;
}

/** Where a text or tree nests too deep, and how (DEPTH001). */
export type TooDeepArgs =
  | { kind: 'json'; limit: number }
  | { kind: 'frontMatter' }
  | { kind: 'quotes'; depth: number; limit: number }
  | { kind: 'indent'; columns: number; limit: number }
  | { kind: 'run'; length: number; delimiter: string; limit: number }
  | { kind: 'paragraph'; limit: number }
  | { kind: 'text'; limit: number }
  | { kind: 'tree'; limit: number };

/** What is wrong with a field (SCHEMA001); `problem` is the schema's own words. */
export type SchemaProblem =
  | { kind: 'unknown'; keys: readonly string[] }
  | { kind: 'missing'; expected: string }
  | { kind: 'invalid'; problem: string };

export const CODES = {
  FILE001: define({
    severity: 'error',
    title: 'Unreadable content file',
    message: (
      a: { file: string; folder: true } | { file: string; folder?: false; errno: string | undefined; error: string },
    ) => (a.folder ? `${a.file} is a folder, not a file` : `${a.file} cannot be read: ${unreadable(a.errno, a.error)}`),
    hint: 'Check that the file exists, is a file (a link must lead to one) and can be read.',
  }),
  FILE002: define({
    severity: 'error',
    title: 'Content file too large',
    message: (a: { file: string; bytes: number; limit: number }) =>
      `${a.file} is ${kib(a.bytes)}; a content file may be at most ${kib(a.limit)}`,
    hint: 'Split the text into several articles, or move data and media out of it (media belong under content/media).',
  }),
  TEXT001: define({
    severity: 'error',
    title: 'Text that is not UTF-8',
    message: (a: { byte: number; offset: number }) =>
      `byte 0x${a.byte.toString(16).padStart(2, '0').toUpperCase()} at offset ${a.offset} is not valid UTF-8`,
    hint: 'Save the file as UTF-8 in your editor; the position shown is the first byte that is not.',
  }),
  TEXT002: define({
    severity: 'error',
    title: 'Control character in the text',
    message: (a: { codePoint: number }) =>
      `the text holds the control character U+${a.codePoint.toString(16).padStart(4, '0').toUpperCase()}${a.codePoint === 0 ? ' (NUL)' : ''}`,
    hint: 'Delete the invisible character at the position shown (often pasted along with text); tabs and line breaks are fine.',
  }),
  DEPTH001: define({
    severity: 'error',
    title: 'Nesting too deep, or markup too dense',
    message: (a: TooDeepArgs) => {
      switch (a.kind) {
        case 'json':
          return `arrays and objects are nested more than ${a.limit} levels deep here`;
        case 'frontMatter':
          return 'the front matter nests lists or maps too deep to read';
        case 'quotes':
          return `quotes are nested ${a.depth} levels deep here; the limit is ${a.limit}`;
        case 'indent':
          return `the line is indented ${a.columns} columns, as lists nested over ${a.limit} levels deep would be`;
        case 'run':
          return `a run of ${a.length} "${a.delimiter}" would nest ${a.delimiter === '[' || a.delimiter === ']' ? 'brackets' : 'emphasis'} over ${a.limit} levels deep`;
        case 'paragraph':
          return `this paragraph holds over ${a.limit.toLocaleString('en')} emphasis and link delimiters (*, _, ~, [, ]), too many to read in reasonable time`;
        case 'text':
          return `the text holds over ${a.limit.toLocaleString('en')} emphasis and link delimiters (*, _, ~, [, ]) by this line, too many to read in reasonable time`;
        case 'tree':
          return `lists, quotes and spans are nested too deep here (over ${a.limit} levels of the document tree)`;
      }
    },
    hint: 'Flatten the structure: no real content nests lists, quotes, emphasis, arrays or objects this deep, or packs this many * _ ~ [ ] into one text.',
  }),
  JSON001: define({
    severity: 'error',
    title: 'Invalid JSON',
    /** `more`: the syntax errors after this one that are not reported. */
    message: (a: { error: string; more: number }) =>
      `JSON syntax error: ${a.error}${a.more > 0 ? ` (and ${a.more.toLocaleString('en')} more syntax errors after it)` : ''}`,
    hint: 'Fix the syntax at the position shown (a missing comma, quote or bracket is the usual cause).',
  }),
  FM001: define({
    severity: 'error',
    title: 'Invalid front matter',
    message: (a: { kind: 'missing' } | { kind: 'notYaml'; opening: string } | { kind: 'invalid'; reason: string }) =>
      a.kind === 'missing'
        ? 'the file has no front matter (title, description, date)'
        : a.kind === 'notYaml'
          ? `the front matter opens with "${a.opening.slice(0, 40)}": only YAML front matter, opened by "---" alone, is read`
          : `front matter is not valid YAML: ${a.reason}`,
    hint: 'Front matter is YAML between two "---" lines at the top of the file.',
  }),
  SCHEMA001: define({
    severity: 'error',
    title: 'Field does not match the content model',
    /** `field`: the dotted path of the field ("subtitle.pt"). */
    message: (a: { field: string } & SchemaProblem) =>
      `${a.field}: ${
        a.kind === 'unknown'
          ? `unknown field${a.keys.length > 1 ? 's' : ''} ${a.keys.map((k) => `"${k}"`).join(', ')}`
          : a.kind === 'missing'
            ? `required field is missing (expected ${a.expected})`
            : a.problem
      }`,
    hint: 'Compare the field with its schema in src/model/schema.ts.',
  }),
  PATH001: define({
    severity: 'error',
    title: 'Article file name does not follow the layout',
    message: (a: { file: string }) => `${a.file} is not at content/blog/<category>/<Slug>.<en|pt>.md`,
    hint: 'Name article files content/blog/<category>/<Slug>.<en|pt>.md.',
  }),
  CAT001: define({
    severity: 'error',
    title: 'Unknown category',
    /** `listedBy`: where the category is named, an article's folder or the Blog index. */
    message: (a: { category: string; listedBy: 'folder' | 'blogIndex' }) =>
      a.listedBy === 'folder'
        ? `category "${a.category}" has no content/categories/${a.category}.json`
        : `the Blog index lists "${a.category}", which has no content/categories/${a.category}.json`,
    hint: 'Create content/categories/<key>.json or move the file to an existing category folder.',
  }),
  CAT002: define({
    severity: 'error',
    title: 'Category key and file disagree',
    message: (a: { key: string; blogCategoryName: string; blogcategory: string }) =>
      `category file "${a.key}" declares blogCategoryName "${a.blogCategoryName}" and blogcategory "${a.blogcategory}"`,
    hint: 'blogCategoryName must equal the file name and blogcategory must be "/blog/<key>".',
  }),
  MD001: define({
    severity: 'error',
    title: 'Malformed figure',
    message: (
      a:
        | { kind: 'directive'; name: string }
        | { kind: 'noSource' }
        | { kind: 'noCaption' }
        | { kind: 'width'; width: string },
    ) =>
      a.kind === 'directive'
        ? `unknown directive "::${a.name}"`
        : a.kind === 'noSource'
          ? 'figure without src'
          : a.kind === 'noCaption'
            ? 'figure without a caption (its description)'
            : `figure width "${a.width}" is not a percentage from 1 to 100`,
    hint: 'Write ::figure[Caption]{src="/media/..." alt="..." width="80"} on its own line.',
  }),
  MD002: define({
    severity: 'warning',
    title: 'Code block in an unknown language',
    message: (a: { language: string }) =>
      `code block language "${a.language}" has no grammar: it is shown without colours`,
    hint: 'Write a language the highlighter knows after the fence (bash, http, json, yaml, ts, js, dockerfile, python, csharp, sql, xml, powershell, ...), or none for plain text.',
  }),
  MD003: define({
    severity: 'warning',
    title: 'Heading that skips a level',
    /**
     * `depth`: the heading's level (2 for "##"); `above`: the heading it follows, absent for the
     * body's first heading, which sits under the page's title (level 1).
     */
    message: (a: { text: string; depth: number; above?: { text: string; depth: number } | undefined }) =>
      a.above === undefined
        ? `the first heading "${a.text}" is level ${a.depth} (${'#'.repeat(a.depth)}), but an article's sections start at level 2 (##), under the page's title`
        : `the heading "${a.text}" is level ${a.depth} (${'#'.repeat(a.depth)}) right under "${a.above.text}", a level ${a.above.depth} heading: level ${a.above.depth + 1} is skipped`,
    hint: (a) =>
      `Make it a level ${(a.above?.depth ?? 1) + 1} heading (${'#'.repeat((a.above?.depth ?? 1) + 1)}), or add the section it belongs to: screen readers list a page by its headings, and a skipped level reads as a missing section.`,
  }),
  LINK001: define({
    severity: 'error',
    title: 'Link to a page that does not exist',
    /** `near`: the path of the page whose path is closest, if one is close. */
    message: (a: { path: string; near?: string | undefined }) => `"${a.path}" is not a page of the site`,
    hint: (a) =>
      a.near
        ? `Did you mean "${a.near}"?`
        : 'Link to a route path as docs/product.md lists them (Languages and URLs), or create the page.',
  }),
  LINK002: define({
    severity: 'error',
    title: 'Link differs from a page only in case',
    message: (a: { path: string; page: string; hash?: string | undefined }) =>
      `"${a.path}" differs only in case from the page "${a.page}"`,
    hint: (a) => `Write "${a.page}${a.hash !== undefined ? `#${a.hash}` : ''}": paths are case-sensitive.`,
  }),
  LINK003: define({
    severity: 'error',
    title: 'Link to a page not offered in the language of the linking page',
    message: (a: { path: string; lang: Lang; offered: readonly Lang[] }) =>
      `"${a.path}" is not offered in ${a.lang} (only ${a.offered.join(', ')}), but the ${a.lang} page links to it`,
    hint: 'Write the target in this language, or show the link only where the target exists.',
  }),
  LINK004: define({
    severity: 'error',
    title: 'Link text names another article than the one it opens',
    /** `article`: the article the link's text names. */
    message: (a: { text: string; path: string; article: { title: string; path: string } }) =>
      `the link "${a.text}" opens "${a.path}", but its text names the article "${a.article.title}"`,
    hint: (a) => `Point it at "${a.article.path}", or change the text.`,
  }),
  LINK005: define({
    severity: 'error',
    title: 'Link to a category with no article in the language of the linking page',
    message: (a: { path: string; lang: Lang }) =>
      `"${a.path}" lists no article in ${LANGUAGE[a.lang]}, but the ${a.lang} text links to it: its reader finds an empty category`,
    hint: 'Remove the link, or link to the category only from texts in a language it has articles in.',
  }),
  DRAFT001: define({
    severity: 'error',
    title: 'Link to an article that is not published',
    /** `date`: the day a scheduled edition is published; absent for a draft. */
    message: (a: { path: string; lang: Lang; date?: string | undefined }) =>
      a.date === undefined
        ? `"${a.path}" is a draft in ${LANGUAGE[a.lang]}: the published site does not have it`
        : `"${a.path}" is scheduled for ${a.date} in ${LANGUAGE[a.lang]}: the published site does not have it before then`,
    hint: (a) =>
      a.date === undefined
        ? 'Publish the article first (take "draft: true" out of its front matter), or leave the link out until then.'
        : "Leave the link out until that day, or move the article's date to today.",
  }),
  DRAFT002: define({
    severity: 'warning',
    title: 'Article not published yet',
    /** `date`: the day a scheduled edition is published; absent for a draft. */
    message: (a: { lang: Lang; date?: string | undefined }) =>
      a.date === undefined
        ? `this ${LANGUAGE[a.lang]} edition is a draft: site build leaves it out`
        : `this ${LANGUAGE[a.lang]} edition is scheduled for ${a.date}: a build before that day leaves it out`,
    hint: (a) =>
      a.date === undefined
        ? 'Take "draft: true" out of its front matter to publish it.'
        : 'The first build on or after that day (UTC) publishes it.',
  }),
  ANCHOR001: define({
    severity: 'error',
    title: 'Link to a section that does not exist',
    /** `near`: an id of the page that differs only in case or hyphens; `ids`: the page's own ids. */
    message: (a: { hash: string; path: string; lang: Lang; near?: string | undefined; ids: readonly string[] }) =>
      `"#${a.hash}" is not an id on ${a.path} (${a.lang})`,
    hint: (a) =>
      a.near ? `Did you mean "#${a.near}"?` : `Ids on that page include: ${a.ids.slice(0, 8).join(', ') || 'none'}.`,
  }),
  ANCHOR002: define({
    severity: 'error',
    title: 'Two elements of a page share an id',
    message: (
      a: { kind: 'layout'; heading: string; id: string } | { kind: 'twice'; id: string; path: string; lang: Lang },
    ) =>
      a.kind === 'layout'
        ? `the heading "${a.heading}" gets the id "${a.id}", which the page layout already uses`
        : `the id "${a.id}" appears twice on ${a.path} (${a.lang})`,
    hint: 'Rename the heading so its id is unique on the page.',
  }),
  INDEX001: define({
    severity: 'error',
    title: 'Index entry points to a missing section',
    /** `near`: a section id that differs only in case; `sections`: the article's section ids. */
    message: (a: { id: string; near?: string | undefined; sections: readonly string[] }) =>
      `index entry "${a.id}" is not a section of this article`,
    hint: (a) => (a.near ? `Did you mean "${a.near}"?` : `Sections: ${a.sections.join(', ') || 'none'}.`),
  }),
  CRUMB001: define({
    severity: 'error',
    title: 'Breadcrumb item does not lead to a page',
    /**
     * `want`: the path the route has at this item; `last`: the item is the page itself; `trail`:
     * the route's real trail; `variant`: a page whose path differs only in case.
     */
    message: (a: {
      path: string;
      want: string;
      last: boolean;
      trail: readonly string[];
      variant?: string | undefined;
    }) => `"${a.path}" is not a page of the site`,
    hint: (a) =>
      a.variant
        ? `Write "${a.variant}": paths are case-sensitive.`
        : a.last
          ? `The last item is the page itself, "${a.want}" (trail ${a.trail.join(' > ')}).`
          : `The real parent here is "${a.want}" (trail ${a.trail.join(' > ')}).`,
  }),
  CRUMB002: define({
    severity: 'error',
    title: 'Breadcrumb trail does not follow the real route',
    /** `trail`: the route's real trail; `item`: 1-based. */
    message: (
      a: { trail: readonly string[] } & (
        | { kind: 'afterPage'; path: string }
        | { kind: 'wrongItem'; item: number; path: string; want: string }
        | { kind: 'stops'; items: number }
      ),
    ) =>
      a.kind === 'afterPage'
        ? `the trail has an item "${a.path}" after the page itself`
        : a.kind === 'wrongItem'
          ? `item ${a.item} of the trail is "${a.path}", but this page's route has "${a.want}" there`
          : `the trail stops after ${a.items} item(s)`,
    hint: (a) => `The trail of this page is ${a.trail.join(' > ')}.`,
  }),
  CRUMB003: define({
    severity: 'error',
    title: "Breadcrumb title differs from its page's title",
    /** `actual`: the title of the page at `path` in `lang`. */
    message: (a: { lang: Lang; title: string; path: string; actual: string }) =>
      `the ${a.lang} title "${a.title}" of "${a.path}" differs from that page's title "${a.actual}"`,
    hint: (a) => `Write "${a.actual}", or leave breadcrumbs out to derive them.`,
  }),
  I18N001: define({
    severity: 'error',
    title: 'UI string missing in a language',
    message: (a: { key: string; lang: Lang }) => `the UI string "${a.key}" has no ${LANGUAGE[a.lang]} text`,
    hint: 'Every UI string in content/strings.json needs both "en" and "pt".',
  }),
  I18N002: define({
    severity: 'error',
    title: 'Page text missing in a language the page offers',
    /** `category`: the category's path; `edition`: the text is an article edition's, in `lang`. */
    message: (
      a:
        | { kind: 'note'; lang: Lang; category: string }
        | { kind: 'breadcrumb'; lang: Lang; path: string; edition: boolean }
        | { kind: 'indexEntry'; lang: Lang; id: string },
    ) =>
      a.kind === 'note'
        ? `the note "msg" has no ${LANGUAGE[a.lang]} text, but ${a.category} is offered in ${a.lang}`
        : a.kind === 'breadcrumb'
          ? `breadcrumb "${a.path}" has no ${LANGUAGE[a.lang]} title${a.edition ? ` in this ${a.lang} edition` : ''}`
          : `index entry "${a.id}" has no ${LANGUAGE[a.lang]} text in this ${a.lang} edition`,
    hint: 'Write the text in both languages: every page kind here is offered in both.',
  }),
  I18N003: define({
    severity: 'error',
    title: 'Listing title in a language the article is not written in',
    /** `title`: the article's own title in `lang`. */
    message: (a: { path: string; lang: Lang; title: string }) =>
      `"${a.path}" is written in ${LANGUAGE[a.lang]} but has no ${a.lang} title here, so the ${a.lang} Blog index leaves it out`,
    hint: (a) => `Add its ${a.lang} title: "${a.title}".`,
  }),
  I18N004: define({
    severity: 'warning',
    title: 'Portuguese text addressing the reader as tu and as você',
    /** `form`: the less used form, found here; `places`: how often the other is used; `example`: one of them. */
    message: (a: { words: string; form: 'tu' | 'você'; places: number; example: { words: string; file: string } }) =>
      `"${a.words}" speaks to the reader as ${a.form}, but the site's other Portuguese texts use ${a.form === 'você' ? 'tu' : 'você'} (${a.places} places, such as "${a.example.words}" in ${a.example.file})`,
    hint: (a) =>
      a.form === 'você'
        ? 'Write it with tu, as the rest of the site ("Toca", "Lê", "estás", "teu"), or with a neutral infinitive ("Ler em português").'
        : 'Write it with você, as the rest of the site, or with a neutral infinitive.',
  }),
  TRANS001: define({
    severity: 'warning',
    title: 'Translation behind its counterpart',
    /**
     * `counterpart`: the file that changed (an article's other edition; absent for a JSON text, whose
     * other language is in the same file); `changed`: its parts changed or added; `removed`: how many went.
     */
    message: (a: {
      lang: Lang;
      since: string;
      counterpart?: string | undefined;
      changed?: readonly string[];
      removed?: number;
      sync: string;
    }) => {
      const other = LANGUAGE[a.lang === 'en' ? 'pt' : 'en'];
      if (a.counterpart === undefined)
        return `the ${other} text changed on ${a.since} since this ${LANGUAGE[a.lang]} one was last brought in line with it`;
      const parts = [
        ...(a.changed && a.changed.length > 0 ? [`${listed(a.changed)} changed`] : []),
        ...(a.removed ? [`${a.removed} section${a.removed === 1 ? '' : 's'} removed`] : []),
      ];
      return `the ${other} edition (${a.counterpart}) changed on ${a.since} since this one was last brought in line with it${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`;
    },
    hint: (a) => `Bring this translation in line with it, then run \`site translations sync ${a.sync}\`.`,
  }),
  TRANS002: define({
    severity: 'warning',
    title: 'Translation never marked as in line',
    message: (a: { kind: 'article' | 'text' | 'file'; sync: string }) =>
      a.kind === 'article'
        ? 'the English and Portuguese editions were never marked as saying the same'
        : a.kind === 'text'
          ? "this text's English and Portuguese were never marked as saying the same"
          : "this file's English and Portuguese texts were never marked as saying the same",
    hint: (a) =>
      `Once both languages say the same, run \`site translations sync ${a.sync}\`: a later change to one then marks the other as behind.`,
  }),
  ASSET001: define({
    severity: 'error',
    title: 'Referenced file does not exist',
    /** `variant`: a file under content/media whose path differs only in case. */
    message: (a: { url: string; variant?: string | undefined }) => `"${a.url}" is not a file under content/media`,
    hint: (a) =>
      a.variant
        ? `Write "/media/${a.variant}": file names are case-sensitive.`
        : 'Put the file under content/media/ at that path, or fix the path (it is case-sensitive).',
  }),
  ASSET002: define({
    severity: 'error',
    title: 'Image without a text alternative',
    /** `image`: the image's file name. */
    message: (a: { image: string; lang: Lang }) => `the image "${a.image}" has no text alternative in ${a.lang}`,
    hint: 'Describe the image in the page\'s language: ![description](/media/...) or alt="..." on a figure.',
  }),
  ASSET003: define({
    severity: 'warning',
    title: 'Image much larger than it is ever shown',
    /** `shown`: the widest it is shown, in CSS pixels; `needed`: that on a screen of twice the density. */
    message: (a: { image: string; width: number; shown: number; needed: number }) =>
      `the image "${a.image}" is ${a.width} px wide, and is shown at most ${a.shown} px wide (${a.needed} px on a high-density screen)`,
    hint: (a) =>
      `Resize it to ${a.needed} px wide: the published variants stop there anyway, and a smaller source keeps the repository small and the cold build fast.`,
  }),
  ASSET004: define({
    severity: 'error',
    title: 'Unreadable image',
    message: (a: { image: string }) =>
      `"${a.image}" cannot be read as an image: the file is damaged, cut short, or not what its extension says`,
    hint: 'Export the image again (JPEG, PNG, WebP or AVIF), or remove it.',
  }),
  ROUTE001: define({
    severity: 'error',
    title: 'Two pages differ only in case',
    message: (a: { path: string; other: string }) => `"${a.path}" and "${a.other}" differ only in case`,
    hint: 'Rename one article file: URLs that differ only in case break on case-insensitive hosts.',
  }),
  ORPHAN001: define({
    severity: 'warning',
    title: 'Page that nothing links to',
    message: (a: { path: string }) => `nothing links to ${a.path}`,
    hint: 'Link to it from a listing, the Blog index or another article, or remove it.',
  }),
  URL001: define({
    severity: 'error',
    title: 'Address with a scheme its field does not allow',
    /** In markdown, `href` as written; in a field, `field`'s dotted path and the schema's words. */
    message: (a: { kind: 'markdown'; href: string } | { kind: 'field'; field: string; problem: string }) =>
      a.kind === 'markdown'
        ? `"${a.href.length > 60 ? `${a.href.slice(0, 60)}…` : a.href}" is not an address a page may carry`
        : `${a.field}: ${a.problem}`,
    hint: 'Links are site paths ("/blog/...") or https:// addresses (mailto: for e-mail); images and media are "/media/..." paths or https:// addresses.',
  }),
  INTERNAL001: define({
    severity: 'error',
    title: 'The site tool failed on this file',
    /** `fault`: the error's message (with where it happened under --verbose, see faultText). */
    message: (a: { kind: 'check'; rule: string; fault: string } | { kind: 'markdown'; fault: string }) =>
      a.kind === 'check' ? `the ${a.rule} check failed: ${a.fault}` : `the markdown could not be compiled: ${a.fault}`,
    hint: 'A fault of the tool, not necessarily of the file: run with --verbose to see where it happened in the code, and simplify the text around the position shown.',
  }),
  HTTP001: define({
    severity: 'warning',
    title: 'External link that is not https',
    message: (a: { url: string }) => `"${a.url}" is not https`,
    hint: 'Use the https:// address of the page.',
  }),
  EXT001: define({
    severity: 'error',
    title: 'External link to a page that is gone',
    message: (a: { url: string; status: 404 | 410; at?: string | undefined }) =>
      `"${a.url}" answers ${a.status} ${a.status === 404 ? 'Not Found' : 'Gone'}${redirected(a.at)}`,
    hint: (a) =>
      `Link to where the page went, or to an archived copy of it: look for one at ${wayback(a.url)} (not asked for you).`,
  }),
  EXT002: define({
    severity: 'warning',
    title: 'External link that moved for good',
    /** `to`: where the permanent redirects lead, with the link's own #fragment when the new address has none. */
    message: (a: { url: string; to: string; status: number }) =>
      `"${a.url}" has moved for good (${a.status}) to "${a.to}"`,
    hint: (a) => `Write "${a.to}" in the link: the old address works only as long as its site keeps the redirect.`,
  }),
  EXT003: define({
    severity: 'warning',
    title: 'External link answered with a failure',
    /**
     * `status`: the last answer of `tries` (5xx after retries, or a refusal such as 401 or 403);
     * `limited`: still 429, or asked to wait `wait` seconds, longer than the check waits;
     * `redirects`: a loop, or more than `count`.
     */
    message: (
      a: { url: string; at?: string | undefined } & (
        | { kind: 'status'; status: number; reason: string; tries: number }
        | { kind: 'limited'; tries: number; wait?: number | undefined }
        | { kind: 'redirects'; loop: boolean; count: number }
      ),
    ) =>
      a.kind === 'status'
        ? `"${a.url}" answers ${a.status} ${a.reason}${a.tries > 1 ? ` (${a.tries} tries)` : ''}${redirected(a.at)}`
        : a.kind === 'limited'
          ? a.wait !== undefined
            ? `"${a.url}" answers 429 Too Many Requests and asks to be left alone for ${a.wait.toLocaleString('en')} s${redirected(a.at)}`
            : `"${a.url}" still answers 429 Too Many Requests after ${a.tries} tries${redirected(a.at)}`
          : a.loop
            ? `"${a.url}" redirects in a loop`
            : `"${a.url}" redirects more than ${a.count} times`,
    hint: (a) =>
      a.kind === 'limited'
        ? 'The site limits how often it is asked, which is never an error: the next check asks again.'
        : a.kind === 'redirects'
          ? 'Open it in a browser: a redirect loop often wants a cookie (a login or consent page). If it works there, add a pattern for it to content/external-links.json.'
          : a.status >= 500
            ? 'The server failed, which may pass: the next check asks again (only good answers are kept). If it lasts, open the page in a browser.'
            : 'The site refuses the checker (a login page, or a site that keeps robots out): open it in a browser, and if it works there, add a pattern for it to content/external-links.json.',
  }),
  EXT004: define({
    severity: 'warning',
    title: 'External link that did not answer',
    /** `detail`: what the network said; `seconds`: the timeout; `tries`: how many times it was asked. */
    message: (
      a: { url: string; at?: string | undefined; tries: number } & (
        | { kind: 'timeout'; seconds: number }
        | { kind: 'dns'; host: string }
        | { kind: 'refused' | 'reset' }
        | { kind: 'tls' | 'blocked' | 'other'; detail: string }
      ),
    ) => {
      const where = `"${a.url}"${redirected(a.at)}`;
      const tries = a.tries > 1 ? ` (${a.tries} tries)` : '';
      switch (a.kind) {
        case 'timeout':
          return `${where} did not answer within ${a.seconds.toLocaleString('en')} s${tries}`;
        case 'dns':
          return `the name "${a.host}" of ${where} is not found${tries}`;
        case 'refused':
          return `${where} refused the connection${tries}`;
        case 'reset':
          return `the connection to ${where} was cut before it answered${tries}`;
        case 'tls':
          return `${where} failed the secure connection: ${a.detail}${tries}`;
        case 'blocked':
          return `${where} is on a port browsers refuse to open (${a.detail})`;
        case 'other':
          return `${where} could not be asked: ${a.detail}${tries}`;
      }
    },
    hint: (a) =>
      a.kind === 'dns'
        ? `If the domain lapsed, the page is gone: link to an archived copy of it (look for one at ${wayback(a.url)}). If this machine is offline, check again once it is not.`
        : a.kind === 'blocked'
          ? 'Visitors cannot open it either: link to an address on a usual port.'
          : a.kind === 'timeout'
            ? 'The server may be slow or down, which may pass: the next check asks again (only good answers are kept). --timeout waits longer.'
            : 'It may pass: the next check asks again (only good answers are kept). If it lasts, open the page in a browser.',
  }),
};

export type DiagnosticCode = keyof typeof CODES;

/** What the message and hint of `C` are made from (for a union of codes, any of theirs). */
export type DiagnosticArgs<C extends DiagnosticCode> = Parameters<(typeof CODES)[C]['message']>[0];

/**
 * A diagnostic found where its file is not known yet (the markdown compiler sees a text, not the
 * file it comes from): the code and its arguments, placed later by `diagnostic()`.
 */
export type Finding<C extends DiagnosticCode = DiagnosticCode> = { [K in C]: { code: K; args: DiagnosticArgs<K> } }[C];
