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
} as const;

export type RuleCode = keyof typeof RULES;
