import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
const EN_FUNCTION = 'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her'.split(' ');
const PT_FUNCTION = 'de a o que e do da em um para é com não uma os no se na por mais as dos como mas foi ao ele das tem à seu sua'.split(' ');

/** The number of distinct words of a language's vocabulary: a few thousand, as in real writing. */
const VOCABULARY = 3000;

/**
 * A vocabulary in rank order, used with Zipf's law: the function words first, then made-up words
 * with the topic words spread among them, so that each topic word is in a few per cent of the
 * articles (as "container" is in a real blog), not in all of them.
 */
function vocabulary(functionWords: readonly string[], topics: readonly string[], accents: boolean, seed: number): string[] {
  const next = random(seed);
  const consonants = 'bcdfglmnprstvz';
  const vowels = accents ? 'aeiouáéíóãõ' : 'aeiou';
  const made = new Set<string>();
  while (made.size < VOCABULARY) {
    let word = '';
    for (let syllables = 2 + Math.floor(next() * 3); syllables > 0; syllables--) {
      word += consonants[Math.floor(next() * consonants.length)] + (vowels[Math.floor(next() * vowels.length)] as string);
    }
    made.add(word);
  }
  const words = [...made];
  topics.forEach((topic, i) => words.splice(150 + Math.floor((i * (VOCABULARY - 300)) / topics.length), 0, topic));
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

function sentence(next: () => number, words: readonly string[], length: number): string {
  const picked = Array.from({ length }, () => zipfWord(next, words));
  const text = picked.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number, words: readonly string[], sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(next, words, 10 + Math.floor(next() * 14))).join(' ');
}

/** The closest earlier article written in `lang`, which an edition in that language may link to. */
function previousIn(lang: 'en' | 'pt', index: number): SyntheticArticle | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const earlier = syntheticArticle(i);
    if (earlier.langs.includes(lang)) return earlier;
  }
  return undefined;
}

export interface SyntheticArticle {
  category: string;
  slug: string;
  /** Both languages, or Portuguese only (one in ten). */
  langs: ('en' | 'pt')[];
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
  };
}

/**
 * The markdown of one edition: front matter, then three paragraphs of a few hundred words under
 * two headings, with a link to the previous article, as real articles link to each other.
 */
export function syntheticMarkdown(index: number, lang: 'en' | 'pt', revision = 0): string {
  const next = random(index * 2 + (lang === 'pt' ? 1 : 0) + revision * 7919);
  const words = lang === 'en' ? EN_WORDS : PT_WORDS;
  // Titles and headings are made of the rarer words, as real ones are (no "the of and").
  const named = (count: number) => {
    const text = Array.from({ length: count }, () => words[40 + Math.floor(next() * (words.length - 40))] as string).join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  };
  const title = `${named(4)} ${index}`;
  const day = String(1 + (index % 28)).padStart(2, '0');
  const month = String(1 + (index % 12)).padStart(2, '0');
  const previous = previousIn(lang, index);
  const link = previous ? ` ${lang === 'en' ? 'See also' : 'Ver também'} [${lang === 'en' ? 'the previous article' : 'o artigo anterior'}](/blog/${previous.category}/${previous.slug}).` : '';
  return [
    '---',
    `title: ${title}`,
    `description: ${sentence(next, words, 14)}`,
    `date: ${2010 + (index % 15)}-${month}-${day}`,
    '---',
    '',
    paragraph(next, words, 6) + link,
    '',
    `## ${named(3)}`,
    '',
    paragraph(next, words, 7),
    '',
    `## ${named(3)} ${index}`,
    '',
    `${paragraph(next, words, 6)} **${words[index % words.length]}** \`${words[(index + 3) % words.length]}\`.`,
    '',
  ].join('\n');
}

/**
 * Writes a site root at `root`: a copy of the real content (its media linked rather than copied)
 * with `count` synthetic articles added to the blog's categories, as if the blog had grown.
 */
export async function writeSyntheticSite(projectRoot: string, root: string, count: number): Promise<SyntheticArticle[]> {
  const source = path.join(projectRoot, 'content');
  const media = path.join(source, 'media');
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  await cp(source, path.join(root, 'content'), { recursive: true, filter: (src) => !src.startsWith(media) });
  await symlink(media, path.join(root, 'content', 'media'));
  const articles = syntheticArticles(count);
  for (const category of SYNTHETIC_CATEGORIES) await mkdir(path.join(root, 'content', 'blog', category), { recursive: true });
  await Promise.all(
    articles.flatMap((article, index) =>
      article.langs.map((lang) => writeFile(articleFile(root, article, lang), syntheticMarkdown(index, lang))),
    ),
  );
  return articles;
}

export function articleFile(root: string, article: SyntheticArticle, lang: 'en' | 'pt'): string {
  return path.join(root, 'content', 'blog', article.category, `${article.slug}.${lang}.md`);
}
