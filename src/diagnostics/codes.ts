/**
 * The catalogue of content diagnostics: every rule has a stable code, a title and a hint.
 * The README documents each code; a test fails when the two disagree.
 */
export const RULES = {
  FILE001: {
    title: 'Unreadable content file',
    hint: 'Check that the file exists and is readable text in UTF-8.',
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
  HTTP001: {
    title: 'External link that is not https',
    hint: 'Use the https:// address of the page.',
  },
} as const;

export type RuleCode = keyof typeof RULES;
