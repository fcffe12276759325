import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { loadContent } from '../../src/load/content';
import { writeLock } from '../../src/translations/lock';
import { syncAll } from '../../src/translations/sync';

/** The listing categories synthetic articles are spread over. */
export const SYNTHETIC_CATEGORIES = ['tech', 'culture', 'books', 'cinema', 'finances', 'fitness', 'opinions'] as const;

/** Words the benchmark's search queries look for: nouns a real blog uses now and then. */
const EN_TOPICS = (
  'build page article reader language search index container server browser garden museum concert river ' +
  'market coffee bread recipe camera light street morning evening running training budget saving invest ' +
  'chapter novel author film director scene music guitar piano harbour bridge tram castle tile window ' +
  'script module function test release deploy cache query table column version branch commit review'
).split(' ');

const PT_TOPICS = (
  'página artigo leitor língua pesquisa índice contentor servidor navegador jardim museu concerto rio ' +
  'mercado café pão receita câmara luz rua manhã tarde corrida treino orçamento poupança investir ' +
  'capítulo romance autor filme realizador cena música guitarra piano porto ponte elétrico castelo azulejo janela ' +
  'guião módulo função teste versão publicação cache consulta tabela coluna ramo revisão ação coração'
).split(' ');

/** The short words every text is full of. */
const EN_FUNCTION =
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her'.split(
    ' ',
  );
const PT_FUNCTION =
  'de a o que e do da em um para é com não uma os no se na por mais as dos como mas foi ao ele das tem à seu sua'.split(
    ' ',
  );

/** The number of distinct words of a language's vocabulary: a few thousand, as in real writing. */
const VOCABULARY = 3000;

/**
 * A vocabulary in rank order, used with Zipf's law: the function words first, then made-up words
 * with the topic words spread among them, so that each topic word is in a few per cent of the
 * articles (as "container" is in a real blog), not in all of them.
 */
function vocabulary(
  functionWords: readonly string[],
  topics: readonly string[],
  accents: boolean,
  seed: number,
): string[] {
  const next = random(seed);
  const consonants = 'bcdfglmnprstvz';
  const vowels = accents ? 'aeiouáéíóãõ' : 'aeiou';
  const made = new Set<string>();
  while (made.size < VOCABULARY) {
    let word = '';
    for (let syllables = 2 + Math.floor(next() * 3); syllables > 0; syllables--) {
      word +=
        consonants[Math.floor(next() * consonants.length)] + (vowels[Math.floor(next() * vowels.length)] as string);
    }
    made.add(word);
  }
  const words = [...made];
  for (const [i, topic] of topics.entries())
    words.splice(150 + Math.floor((i * (VOCABULARY - 300)) / topics.length), 0, topic);
  return [...functionWords, ...words];
}

const EN_WORDS = vocabulary(EN_FUNCTION, EN_TOPICS, false, 11);
const PT_WORDS = vocabulary(PT_FUNCTION, PT_TOPICS, true, 13);

/** A small deterministic generator, so every run and every commit measures the same site. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A word drawn by Zipf's law over a vocabulary in rank order (the k-th word about 1/k as often as the first). */
function zipfWord(next: () => number, words: readonly string[]): string {
  return words[Math.min(words.length - 1, Math.floor(Math.exp(next() * Math.log(words.length + 1))) - 1)] as string;
}

type Lang = 'en' | 'pt';

const wordsOf = (lang: Lang) => (lang === 'en' ? EN_WORDS : PT_WORDS);

/** The rarer words (past the function words), which titles and headings are made of, as real ones are. */
const NAMING = { en: EN_WORDS.slice(40), pt: PT_WORDS.slice(40) };
/** The same without accents: the words of the heading other articles link to, so its id is plain ASCII. */
const NAMING_ASCII = {
  en: NAMING.en.filter((w) => /^[a-z]+$/.test(w)),
  pt: NAMING.pt.filter((w) => /^[a-z]+$/.test(w)),
};

function named(next: () => number, words: readonly string[], count: number): string {
  const text = Array.from({ length: count }, () => words[Math.floor(next() * words.length)] as string).join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** A sentence of `length` words; now and then one of them in emphasis, or strong, or as inline code. */
function sentence(next: () => number, words: readonly string[], length: number, marks = false): string {
  const picked = Array.from({ length }, () => zipfWord(next, words));
  if (marks) {
    const at = 1 + Math.floor(next() * (length - 1));
    const roll = next();
    if (roll < 0.12) picked[at] = `*${picked[at]}*`;
    else if (roll < 0.18) picked[at] = `**${picked[at]}**`;
    else if (roll < 0.24) picked[at] = `\`${picked[at]}\``;
  }
  const text = picked.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number, words: readonly string[], sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(next, words, 10 + Math.floor(next() * 14), true)).join(' ');
}

/** The closest earlier article written in `lang`, which an edition in that language may link to. */
function previousIn(lang: Lang, index: number): SyntheticArticle | undefined {
  return earlierIn(lang, index, 1);
}

/** An article at least `distance` places before `index` that has an edition in `lang`. */
function earlierIn(lang: Lang, index: number, distance: number): SyntheticArticle | undefined {
  for (let i = index - distance; i >= 0; i--) {
    const earlier = syntheticArticle(i);
    if (earlier.langs.includes(lang)) return earlier;
  }
  return undefined;
}

export interface SyntheticArticle {
  category: string;
  slug: string;
  /** Both languages, or Portuguese only (one in ten). */
  langs: Lang[];
  /** Its place in the site's fixed order (the `index` of `syntheticMarkdown`). */
  index: number;
}

/** The articles of a synthetic site of `count` articles, in a fixed order. */
export function syntheticArticles(count: number): SyntheticArticle[] {
  return Array.from({ length: count }, (_, i) => syntheticArticle(i));
}

function syntheticArticle(i: number): SyntheticArticle {
  return {
    category: SYNTHETIC_CATEGORIES[i % SYNTHETIC_CATEGORIES.length] as string,
    slug: `post${String(i).padStart(5, '0')}`,
    langs: i % 10 === 9 ? ['pt'] : ['en', 'pt'],
    index: i,
  };
}

/** What an edition's front matter and headings say: fixed by article and language, whatever its revision. */
export interface SyntheticOutline {
  title: string;
  description: string;
  /** The `##` headings, in order; the first is plain ASCII, the one other articles link to. */
  sections: string[];
  /** The two `###` headings, under the second section. */
  subsections: [string, string];
}

/**
 * The title, description and section headings of an edition. They never change with the body's
 * revision: a body edit leaves the front matter as it was (listings unchanged), and links into
 * the article (by its title, to its first section's id) stay valid.
 */
export function syntheticOutline(index: number, lang: Lang): SyntheticOutline {
  const next = random(1_000_003 + index * 2 + (lang === 'pt' ? 1 : 0));
  const title = `${named(next, NAMING[lang], 4)} ${index}`;
  const description = sentence(next, wordsOf(lang), 14);
  const count = 5 + (index % 3);
  // A number in each heading keeps the ids of one page distinct (ANCHOR002), as real headings are.
  const sections = Array.from(
    { length: count },
    (_, s) => `${named(next, s === 0 ? NAMING_ASCII[lang] : NAMING[lang], 2 + Math.floor(next() * 3))} ${s + 1}`,
  );
  const subsections: [string, string] = [`${named(next, NAMING[lang], 2)} 2a`, `${named(next, NAMING[lang], 2)} 2b`];
  return { title, description, sections, subsections };
}

/** The id the site gives a heading (a GitHub-style slug): lower case, spaces as hyphens. */
function headingId(text: string): string {
  return text.toLowerCase().replace(/ /g, '-');
}

/** Images of the real content, each of an article's own category where it has one. */
const MEDIA: Record<string, string> = {
  tech: '/media/blog/tech/docker-layers.svg',
  culture: '/media/blog/culture/gulbenkian-garden.svg',
  books: '/media/blog/books/mozart-travels.svg',
  cinema: '/media/blog/cinema/fassbinder-frames.svg',
  finances: '/media/blog/finances/etfs-crescimento.svg',
  fitness: '/media/blog/fitness/runningshoes-drop.svg',
  opinions: '/media/blog/opinions/remotework-week.svg',
};

/**
 * Photos, as a blog's are: JPEGs exported 1600 px wide, a quarter of the articles showing one in
 * a figure. A pool of distinct ones (a real blog's are all distinct, but encoding thousands would
 * make the cold build a measure of the encoder alone): each is encoded once per cold build into
 * 15 variants, and never again while it is unchanged.
 */
export const PHOTOS = 24;
const PHOTO_WIDTH = 1600;
const PHOTO_HEIGHT = 1067;
const photoPath = (n: number) => `/media/blog/photos/photo-${String(n).padStart(2, '0')}.jpg`;

/**
 * A photo-like JPEG, the same for the same `n`: a sky, a sun and hills in colours of its own, with a
 * grain of seeded noise softened over it, so that it compresses as a photograph does (about 60 KB).
 */
async function syntheticPhoto(n: number): Promise<Buffer> {
  const next = random(7919 * (n + 1));
  const hue = Math.floor(next() * 360);
  const hill = () => Math.round(PHOTO_HEIGHT * (0.45 + next() * 0.3));
  const shapes = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}"><defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,70%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},60%,85%)"/></linearGradient></defs>` +
      `<rect width="${PHOTO_WIDTH}" height="${PHOTO_HEIGHT}" fill="url(#s)"/><circle cx="${Math.round(200 + next() * 1200)}" cy="${Math.round(120 + next() * 250)}" r="${Math.round(50 + next() * 90)}" fill="hsl(45,90%,65%)"/>` +
      `<path d="M0 ${hill()} Q400 ${hill()} 800 ${hill()} T${PHOTO_WIDTH} ${hill()} V${PHOTO_HEIGHT} H0 Z" fill="hsl(${(hue + 180) % 360},35%,35%)"/>` +
      `<path d="M0 ${hill() + 150} Q600 ${hill() + 100} 1000 ${hill() + 160} T${PHOTO_WIDTH} ${hill() + 120} V${PHOTO_HEIGHT} H0 Z" fill="hsl(${(hue + 200) % 360},30%,22%)"/></svg>`,
  );
  const grainWidth = 400;
  const grainHeight = 267;
  const grain = Buffer.alloc(grainWidth * grainHeight * 3);
  for (let i = 0; i < grain.length; i++) grain[i] = 104 + Math.floor(next() * 48);
  const texture = await sharp(grain, { raw: { width: grainWidth, height: grainHeight, channels: 3 } })
    .resize(PHOTO_WIDTH, PHOTO_HEIGHT)
    .blur(2)
    .png()
    .toBuffer();
  return sharp(shapes)
    .composite([{ input: texture, blend: 'soft-light' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Pages of the site itself, which articles link to now and then. */
const SITE_PAGES = [
  { path: '/aboutme', en: 'about me', pt: 'sobre mim' },
  { path: '/professional', en: 'professional page', pt: 'página profissional' },
  { path: '/projects', en: 'projects page', pt: 'página de projetos' },
  { path: '/atelier', en: 'atelier', pt: 'atelier' },
  { path: '/blog', en: 'blog', pt: 'blog' },
] as const;

/** External references of the kind real articles give. */
const EXTERNAL = [
  'https://docs.docker.com/get-started/',
  'https://git-scm.com/book/en/v2',
  'https://developer.mozilla.org/en-US/docs/Web/HTTP/Cookies',
  'https://gulbenkian.pt/museu/',
  'https://en.wikipedia.org/wiki/Rainer_Werner_Fassbinder',
  'https://www.justetf.com/en/',
  'https://nodejs.org/en/learn/getting-started/introduction-to-nodejs',
];

/** The code of an article: the same in both editions, as in the real ones. */
function codeBlock(index: number): string {
  const next = random(2_000_003 + index);
  const word = () => NAMING_ASCII.en[Math.floor(next() * NAMING_ASCII.en.length)] as string;
  const lines = 4 + Math.floor(next() * 8);
  const kinds: Record<string, () => string> = {
    bash: () => `${['git', 'docker', 'npm', 'curl'][Math.floor(next() * 4)]} ${word()} --${word()} ${word()}`,
    ts: () => `const ${word()} = await ${word()}(${word()}, '${word()}');`,
    python: () => `${word()} = ${word()}.${word()}(${word()}=${Math.floor(next() * 100)})`,
    yaml: () => `${word()}:\n  ${word()}: ${word()}`,
    json: () => `  "${word()}": ["${word()}", ${Math.floor(next() * 1000)}],`,
    sql: () => `SELECT ${word()}, ${word()} FROM ${word()} WHERE ${word()} = ${Math.floor(next() * 100)};`,
  };
  const language = Object.keys(kinds)[index % 6] as string;
  const body = Array.from({ length: lines }, kinds[language] as () => string);
  if (language === 'json') {
    body.unshift('{');
    body.push('  "end": true', '}');
  }
  const fence = '```';
  return [`${fence}${language}`, ...body, fence].join('\n');
}

function list(next: () => number, words: readonly string[], items: number, numbered: boolean): string {
  return Array.from(
    { length: items },
    (_, i) => `${numbered ? `${i + 1}.` : '-'} ${sentence(next, words, 4 + Math.floor(next() * 9), true)}`,
  ).join('\n');
}

/**
 * The links of an edition, fixed by article and language (never by revision), all valid: to the
 * previous article in its language, by its title or in other words; every third article to the
 * first section of one further back, by that section's heading; to a page of the site and to its
 * own category. Texts that name no article stand beside a word no title has ("notes", "section"),
 * so that LINK004 scans for them, as it does for real texts, and finds nothing.
 */
function links(
  index: number,
  lang: Lang,
  category: string,
): { previous: string; section: string; page: string; category: string } {
  const previous = previousIn(lang, index);
  let previousLink = '';
  if (previous) {
    const { title } = syntheticOutline(previous.index, lang);
    const href = `/blog/${previous.category}/${previous.slug}`;
    const titleWords = title.split(' ');
    const text = [
      title,
      lang === 'en' ? 'the previous article' : 'o artigo anterior',
      `${lang === 'en' ? 'my notes on' : 'as minhas notas sobre'} ${titleWords.slice(1, 3).join(' ').toLowerCase()}`,
    ][index % 3] as string;
    previousLink = ` ${lang === 'en' ? 'See also' : 'Ver também'} [${text}](${href}).`;
  }
  let sectionLink = '';
  const further = index % 3 === 0 ? earlierIn(lang, index, 2 + (index % 40)) : undefined;
  if (further) {
    const heading = syntheticOutline(further.index, lang).sections[0] as string;
    const text = `${lang === 'en' ? 'the section on' : 'a secção sobre'} ${heading.toLowerCase()}`;
    sectionLink = ` ${lang === 'en' ? 'I wrote more in' : 'Escrevi mais em'} [${text}](/blog/${further.category}/${further.slug}#${headingId(heading)}).`;
  }
  const page = SITE_PAGES[index % SITE_PAGES.length] as (typeof SITE_PAGES)[number];
  return {
    previous: previousLink,
    section: sectionLink,
    page: ` ${lang === 'en' ? 'More on the' : 'Mais na'} [${page[lang]}](${page.path}).`,
    category: ` ${lang === 'en' ? 'Other articles are in the' : 'Há outros artigos na'} [${lang === 'en' ? `${category} category` : `categoria ${category}`}](/blog/${category}).`,
  };
}

/**
 * The markdown of one edition, shaped as the real articles are (about a thousand words): front
 * matter with a title, description, date and cover (and an index of sections in three of ten);
 * an introduction, then five to seven `##` sections, one with two `###` subsections; a bullet and
 * a numbered list, a fenced code block, emphasis and inline code, links to other articles (one to
 * a section), to the site's pages and its category, an external link, a figure and a blockquote.
 * `revision` rewrites the body's prose only: the front matter, headings and links stay as they were.
 */
export function syntheticMarkdown(index: number, lang: Lang, revision = 0): string {
  const next = random(index * 2 + (lang === 'pt' ? 1 : 0) + revision * 7919);
  const words = wordsOf(lang);
  const article = syntheticArticle(index);
  const { title, description, sections, subsections } = syntheticOutline(index, lang);
  const link = links(index, lang, article.category);
  const day = String(1 + (index % 28)).padStart(2, '0');
  const month = String(1 + (index % 12)).padStart(2, '0');
  const external = EXTERNAL[index % EXTERNAL.length] as string;
  const media = MEDIA[article.category] as string;
  const body: string[] = [paragraph(next, words, 4 + Math.floor(next() * 3)) + link.previous];
  sections.forEach((heading, s) => {
    body.push(`## ${heading}`, paragraph(next, words, 3 + Math.floor(next() * 3)));
    if (s === 0)
      body.push(list(next, words, 3 + Math.floor(next() * 4), false), paragraph(next, words, 3) + link.section);
    else if (s === 1) {
      body.push(
        `### ${subsections[0]}`,
        paragraph(next, words, 3),
        list(next, words, 3 + Math.floor(next() * 3), true),
      );
      body.push(`### ${subsections[1]}`, paragraph(next, words, 3));
    } else if (s === 2) body.push(codeBlock(index), paragraph(next, words, 2 + Math.floor(next() * 3)));
    else if (s === 3) {
      const figure = index % 4 === 0 ? photoPath(Math.floor(index / 4) % PHOTOS) : media;
      body.push(
        `::figure[${sentence(next, words, 12)}]{src="${figure}" alt="${sentence(next, words, 16)}" width="85"}`,
      );
      body.push(`> ${paragraph(next, words, 2)}`, paragraph(next, words, 3) + link.page);
    } else if (s === sections.length - 1) {
      body.push(
        `${paragraph(next, words, 3)} [${sentence(next, words, 3).slice(0, -1)}](${external}).${link.category}`,
      );
    } else body.push(paragraph(next, words, 3 + Math.floor(next() * 3)));
  });
  return [
    '---',
    `title: ${title}`,
    `description: ${description}`,
    `date: ${2010 + (index % 15)}-${month}-${day}`,
    `cover: ${media}`,
    ...(index % 10 < 3 ? ['index: true'] : []),
    '---',
    '',
    body.join('\n\n'),
    '',
  ].join('\n');
}

/** The same edition with its front matter's title replaced (the body as it was). */
export function withTitle(markdown: string, title: string): string {
  return markdown.replace(/^title: .*$/m, `title: ${title}`);
}

/**
 * Writes a site root at `root`: a copy of the real content with `count` synthetic articles added
 * to the blog's categories, as if the blog had grown, and the photos they show. With no articles,
 * the real media folder is linked rather than copied.
 */
export async function writeSyntheticSite(
  projectRoot: string,
  root: string,
  count: number,
): Promise<SyntheticArticle[]> {
  const source = path.join(projectRoot, 'content');
  const media = path.join(source, 'media');
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp(source, path.join(root, 'content'), { recursive: true, filter: (src) => !src.startsWith(media) });
  if (count === 0) await symlink(media, path.join(root, 'content', 'media'));
  else {
    await cp(media, path.join(root, 'content', 'media'), { recursive: true });
    await mkdir(path.join(root, 'content', 'media', 'blog', 'photos'), { recursive: true });
    for (let n = 0; n < Math.min(PHOTOS, Math.ceil(count / 4)); n++)
      await writeFile(path.join(root, 'content', photoPath(n)), await syntheticPhoto(n));
  }
  const articles = syntheticArticles(count);
  for (const category of SYNTHETIC_CATEGORIES)
    await mkdir(path.join(root, 'content', 'blog', category), { recursive: true });
  await Promise.all(
    articles.flatMap((article, index) =>
      article.langs.map((lang) => writeFile(articleFile(root, article, lang), syntheticMarkdown(index, lang))),
    ),
  );
  // Its translations in line, as the owner keeps them (`site translations sync`): a check of the
  // grown blog reports nothing, as on the real one.
  const { content } = await loadContent(root);
  if (content) await writeLock(root, syncAll(content));
  return articles;
}

export function articleFile(root: string, article: SyntheticArticle, lang: Lang): string {
  return path.join(root, 'content', 'blog', article.category, `${article.slug}.${lang}.md`);
}
