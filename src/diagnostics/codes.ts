/**
 * The catalogue of content diagnostics: every rule has a stable code, a title and a hint.
 * The README documents each code; a test fails when the two disagree.
 */
export const RULES = {
  FILE001: {
    title: 'Unreadable content file',
    hint: 'Check that the file exists, is a file (a link must lead to one) and can be read.',
  },
  FILE002: {
    title: 'Content file too large',
    hint: 'Split the text into several articles, or move data and media out of it (media belong under content/media).',
  },
  TEXT001: {
    title: 'Text that is not UTF-8',
    hint: 'Save the file as UTF-8 in your editor; the position shown is the first byte that is not.',
  },
  TEXT002: {
    title: 'Control character in the text',
    hint: 'Delete the invisible character at the position shown (often pasted along with text); tabs and line breaks are fine.',
  },
  DEPTH001: {
    title: 'Nesting too deep, or markup too dense',
    hint: 'Flatten the structure: no real content nests lists, quotes, emphasis, arrays or objects this deep, or packs this many * _ ~ [ ] into one text.',
  },
  JSON001: {
    title: 'Invalid JSON',
    hint: 'Fix the syntax at the position shown (a missing comma, quote or bracket is the usual cause).',
  },
  FM001: {
    title: 'Invalid front matter',
    hint: 'Front matter is YAML between two "---" lines at the top of the file.',
  },
  SCHEMA001: {
    title: 'Field does not match the content model',
    hint: 'Compare the field with its schema in src/model/schema.ts.',
  },
  PATH001: {
    title: 'Article file name does not follow the layout',
    hint: 'Name article files content/blog/<category>/<Slug>.<en|pt>.md.',
  },
  CAT001: {
    title: 'Unknown category',
    hint: 'Create content/categories/<key>.json or move the file to an existing category folder.',
  },
  CAT002: {
    title: 'Category key and file disagree',
    hint: 'blogCategoryName must equal the file name and blogcategory must be "/blog/<key>".',
  },
  MD001: {
    title: 'Malformed figure',
    hint: 'Write ::figure[Caption]{src="/media/..." alt="..." width="80"} on its own line.',
  },
  LINK001: {
    title: 'Link to a page that does not exist',
    hint: 'Link to a route path as the README lists them, or create the page.',
  },
  LINK002: {
    title: 'Link differs from a page only in case',
    hint: 'Paths are case-sensitive: use the exact path given.',
  },
  LINK003: {
    title: 'Link to a page not offered in the language of the linking page',
    hint: 'Write the target in this language, or show the link only where the target exists.',
  },
  LINK004: {
    title: 'Link text names another article than the one it opens',
    hint: 'Point the link at the article its text names, or change the text.',
  },
  LINK005: {
    title: 'Link to a category with no article in the language of the linking page',
    hint: 'Remove the link, or link to the category only from texts in a language it has articles in.',
  },
  ANCHOR001: {
    title: 'Link to a section that does not exist',
    hint: 'Use the id of an existing heading (GitHub-style slug of its text).',
  },
  ANCHOR002: {
    title: 'Two elements of a page share an id',
    hint: 'Rename the heading so its id is unique on the page.',
  },
  INDEX001: {
    title: 'Index entry points to a missing section',
    hint: 'Use the id of a heading of this article, or write `index: true` to list them all.',
  },
  CRUMB001: {
    title: 'Breadcrumb item does not lead to a page',
    hint: 'Breadcrumbs follow the route: Blog > category > article.',
  },
  CRUMB002: {
    title: 'Breadcrumb trail does not follow the real route',
    hint: 'Breadcrumbs follow the route: Blog > category > article; leave them out to derive them.',
  },
  CRUMB003: {
    title: "Breadcrumb title differs from its page's title",
    hint: 'Use the title the page has in this language, or leave breadcrumbs out to derive them.',
  },
  I18N001: {
    title: 'UI string missing in a language',
    hint: 'Every UI string in content/strings.json needs both "en" and "pt".',
  },
  I18N002: {
    title: 'Page text missing in a language the page offers',
    hint: 'Write the text in both languages: every page kind here is offered in both.',
  },
  I18N003: {
    title: 'Listing title in a language the article is not written in',
    hint: 'Remove the title in that language, or write that edition of the article.',
  },
  I18N004: {
    title: 'Portuguese text addressing the reader as tu and as você',
    hint: 'Use one form of address in every Portuguese text (the site uses tu), or a neutral infinitive.',
  },
  ASSET001: {
    title: 'Referenced file does not exist',
    hint: 'Put the file under content/media/ at that path, or fix the path (it is case-sensitive).',
  },
  ASSET002: {
    title: 'Image without a text alternative',
    hint: 'Describe the image in the page\'s language: ![description](/media/...) or alt="..." on a figure.',
  },
  ROUTE001: {
    title: 'Two pages differ only in case',
    hint: 'Rename one article file: URLs that differ only in case break on case-insensitive hosts.',
  },
  ORPHAN001: {
    title: 'Page that nothing links to',
    hint: 'Link to it from a listing, the Blog index or another article, or remove it.',
  },
  URL001: {
    title: 'Address with a scheme its field does not allow',
    hint: 'Links are site paths ("/blog/...") or https:// addresses (mailto: for e-mail); images and media are "/media/..." paths or https:// addresses.',
  },
  INTERNAL001: {
    title: 'The site tool failed on this file',
    hint: 'A fault of the tool, not necessarily of the file: run with --verbose to see where it happened in the code, and simplify the text around the position shown.',
  },
  HTTP001: {
    title: 'External link that is not https',
    hint: 'Use the https:// address of the page.',
  },
} as const;

export type RuleCode = keyof typeof RULES;
