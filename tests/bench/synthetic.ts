import { cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The listing categories synthetic articles are spread over. */
export const SYNTHETIC_CATEGORIES = ['tech', 'culture', 'books', 'cinema', 'finances', 'fitness', 'opinions'] as const;

const EN_WORDS = (
  'build page article reader language search index container server browser garden museum concert river ' +
  'market coffee bread recipe camera light street morning evening running training budget saving invest ' +
  'chapter novel author film director scene music guitar piano harbour bridge tram castle tile window ' +
  'script module function test release deploy cache query table column version branch commit review'
).split(' ');

const PT_WORDS = (
  'página artigo leitor língua pesquisa índice contentor servidor navegador jardim museu concerto rio ' +
  'mercado café pão receita câmara luz rua manhã tarde corrida treino orçamento poupança investir ' +
  'capítulo romance autor filme realizador cena música guitarra piano porto ponte elétrico castelo azulejo janela ' +
  'guião módulo função teste versão publicação cache consulta tabela coluna ramo revisão ação coração'
).split(' ');

/** A small deterministic generator, so every run and every commit measures the same site. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next: () => number, words: readonly string[], length: number): string {
  const picked = Array.from({ length }, () => words[Math.floor(next() * words.length)] as string);
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
  const title = `${sentence(next, words, 4).slice(0, -1)} ${index}`;
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
    `## ${sentence(next, words, 3).slice(0, -1)}`,
    '',
    paragraph(next, words, 7),
    '',
    `## ${sentence(next, words, 3).slice(0, -1)} ${index}`,
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
