import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slugTitle, starterText } from '../../../src/authoring/newArticle';
import { registerMarks } from '../../../src/markdown/register';
import { ArticleFrontMatter } from '../../../src/model/schema';
import { isoDay } from '../../../src/shared/date';
import { site } from '../../support/cli';
import { copyOfContent, PROJECT_ROOT } from '../../support/content';
import { type RunningDev, startDev } from '../../support/dev';
import { differences, filesUnder } from '../../support/tool';

/** `site dev`'s defaults as `site new` reads them, fixed so that the URLs it prints are known. */
const DEV_ENV = { HOST: '127.0.0.1', PORT: '4321' };

const STACK = /^\s+at .+:\d+:\d+\)?$/m;

describe('site new', () => {
  let content: Awaited<ReturnType<typeof copyOfContent>>;
  const newArticle = (...args: string[]) => site(['--root', content.root, 'new', ...args], DEV_ENV);
  const read = (relative: string) => readFile(path.join(content.root, relative), 'utf8');

  beforeAll(async () => {
    content = await copyOfContent();
  });
  afterAll(() => content.cleanup());

  it('writes both editions as drafts dated today, prints them and their site dev URLs, and site check stays clean', async () => {
    const before = isoDay(new Date());
    const result = await newArticle('tech/Kubernetes-Basics');
    const after = isoDay(new Date());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      '✓ wrote content/blog/tech/Kubernetes-Basics.en.md\n✓ wrote content/blog/tech/Kubernetes-Basics.pt.md\n',
    );
    expect(result.stdout).toContain(
      '  http://127.0.0.1:4321/blog/tech/Kubernetes-Basics\n  http://127.0.0.1:4321/pt/blog/tech/Kubernetes-Basics\n',
    );

    const en = matter(await read('content/blog/tech/Kubernetes-Basics.en.md'), {});
    const pt = matter(await read('content/blog/tech/Kubernetes-Basics.pt.md'), {});
    for (const edition of [en, pt]) {
      const front = ArticleFrontMatter.parse(edition.data);
      expect(front.title).toBe('Kubernetes Basics');
      expect(front.draft).toBe(true);
      expect([before, after]).toContain(front.date);
      expect(Object.keys(edition.data).sort()).toEqual(['date', 'description', 'draft', 'title']);
      expect(edition.content.trim().length).toBeGreaterThan(20);
    }
    expect(en.data.description).toMatch(/^One or two sentences/);
    expect(pt.data.description).toMatch(/^Uma ou duas frases/);
    // European Portuguese that speaks to no one: neither tu nor você (I18N004 would weigh either).
    expect(registerMarks(`${pt.data.description}\n${pt.content}`)).toEqual([]);
    expect(pt.content).not.toMatch(/você/i);

    const check = await site(['--root', content.root, 'check', '--strict']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('(0 errors, 0 warnings)');
    expect(check.stdout).toContain(
      'Drafts (left out until "draft: true" is removed; site dev and --drafts show them): 2\n  content/blog/tech/Kubernetes-Basics.en.md\n  content/blog/tech/Kubernetes-Basics.pt.md',
    );
    // Shown as site dev shows it, the draft is valid content too: its only diagnostics say it is a
    // draft, and that its two editions are yet to be brought in line (translated, then synced).
    const shown = await site(['--root', content.root, 'check', '--drafts', '--format', 'json']);
    expect(shown.code).toBe(0);
    expect(
      (JSON.parse(shown.stdout) as { code: string; file: string }[]).map((d) => `${d.code} ${d.file}`).sort(),
    ).toEqual([
      'DRAFT002 content/blog/tech/Kubernetes-Basics.en.md',
      'DRAFT002 content/blog/tech/Kubernetes-Basics.pt.md',
      'TRANS002 content/blog/tech/Kubernetes-Basics.pt.md',
    ]);
  });

  it('--lang pt writes the Portuguese edition alone, served at the route path of a Portuguese-only article', async () => {
    const result = await newArticle('music/Mahler-Symphonies', '--lang', 'pt');
    expect(result.code, result.stderr).toBe(0);
    // The music category had no article folder yet.
    expect(await readdir(path.join(content.root, 'content/blog/music'))).toEqual(['Mahler-Symphonies.pt.md']);
    expect(result.stdout).toContain('✓ wrote content/blog/music/Mahler-Symphonies.pt.md\n');
    expect(result.stdout).toContain('  http://127.0.0.1:4321/blog/music/Mahler-Symphonies\n');
    expect(result.stdout).not.toContain('.en.md');
    expect(matter(await read('content/blog/music/Mahler-Symphonies.pt.md'), {}).data).toMatchObject({
      title: 'Mahler Symphonies',
      draft: true,
    });
  });

  it.each([
    {
      what: 'a slug that exists in another case',
      args: ['tech/git'],
      message: 'content/blog/tech/Git.en.md already exists: "tech/git" differs from /blog/tech/Git only in case',
      hint: 'Choose another slug.',
    },
    {
      what: 'a slug whose other edition exists in another case',
      args: ['culture/Gulbenkian', '--lang', 'en'],
      message:
        'content/blog/culture/gulbenkian.pt.md already exists: "culture/Gulbenkian" differs from /blog/culture/gulbenkian only in case',
      hint: 'Choose another slug, or start the English edition of that article with "site new culture/gulbenkian --lang en".',
    },
    {
      what: 'an edition that exists (never overwritten)',
      args: ['culture/gulbenkian'],
      message: 'content/blog/culture/gulbenkian.pt.md already exists',
      hint: 'Start only its English edition with "site new culture/gulbenkian --lang en", or choose another slug.',
    },
    {
      what: 'an unknown category',
      args: ['tehc/Helm'],
      message: 'there is no category "tehc" (no content/categories/tehc.json)',
      hint: 'Did you mean "tech"? The categories that list articles: books, cinema, culture, finances, fitness, music, opinions, tech.',
    },
    {
      what: 'a photo gallery, whose page lists no articles',
      args: ['photos/Lisbon'],
      message: '"photos" is a photo gallery: its page shows photos and lists no articles',
      hint: 'Choose a category that lists articles: books, cinema, culture, finances, fitness, music, opinions, tech.',
    },
    {
      what: 'a slug with characters a URL segment may not hold',
      args: ['tech/Kubernetes Básico'],
      message: '"Kubernetes Básico" cannot be a slug: it may hold only the letters A-Z and a-z, digits, "-" and "_"',
      hint: 'The slug is the last part of the article\'s URL (/blog/tech/<Slug>): try "site new tech/Kubernetes-Basico".',
    },
  ])('refuses $what: exit 1, one line and a hint, nothing written', async ({ args, message, hint }) => {
    const blog = path.join(content.root, 'content/blog');
    const [files, folders] = [await filesUnder(blog), await readdir(blog)];
    const result = await newArticle(...args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`✗ ${message}\n  ${hint}\n`);
    expect(result.stderr).not.toMatch(STACK);
    expect(differences(files, await filesUnder(blog))).toEqual([]);
    expect(await readdir(blog)).toEqual(folders);
  });

  it('starts the missing edition of an existing article, with its URL under /pt once both exist', async () => {
    const result = await newArticle('tech/orm', '--lang', 'pt');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('✓ wrote content/blog/tech/orm.pt.md\n');
    expect(result.stdout).toContain('  http://127.0.0.1:4321/pt/blog/tech/orm\n');
    expect(await read('content/blog/tech/orm.en.md')).not.toContain('draft: true');
  });

  it('takes an argument that is not <category>/<Slug>, or an unknown language, as a usage mistake (exit 2)', async () => {
    const blog = path.join(content.root, 'content/blog');
    const files = await filesUnder(blog);
    for (const args of [['tech'], ['tech/'], ['/Helm'], ['tech/Helm/Charts'], ['tech/Helm', '--lang', 'de']]) {
      const result = await newArticle(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(
        args.length > 1
          ? /--lang <lang>.*'de' is invalid/
          : /Write it as <category>\/<Slug>, for example tech\/Kubernetes-Basics\./,
      );
    }
    expect(differences(files, await filesUnder(blog))).toEqual([]);
  });
});

describe('site new, then site dev', () => {
  let content: Awaited<ReturnType<typeof copyOfContent>>;
  let dev: RunningDev;
  let printed: string[];

  beforeAll(async () => {
    content = await copyOfContent({ articles: 'clean' });
    const result = await site(['--root', content.root, 'new', 'tech/Kubernetes-Basics'], DEV_ENV);
    expect(result.code, result.stderr).toBe(0);
    printed = [...result.stdout.matchAll(/^ {2}(http:\S+)$/gm)].map((m) => new URL(m[1]!).pathname);
    dev = await startDev(PROJECT_ROOT, content.root);
  }, 120_000);
  afterAll(async () => {
    await dev?.stop();
    await content?.cleanup();
  });

  it('serves the draft at the URLs site new printed, marked as a draft in each language', async () => {
    expect(printed).toEqual(['/blog/tech/Kubernetes-Basics', '/pt/blog/tech/Kubernetes-Basics']);
    const en = await fetch(dev.origin + printed[0]);
    expect(en.status).toBe(200);
    const enHtml = await en.text();
    expect(enHtml).toContain('<h1>Kubernetes Basics</h1>');
    expect(enHtml).toContain('<span class="status">Draft</span>');
    expect(enHtml).toContain('Start writing here.');
    const pt = await fetch(dev.origin + printed[1]);
    expect(pt.status).toBe(200);
    const ptHtml = await pt.text();
    expect(ptHtml).toContain('<span class="status">Rascunho</span>');
    expect(ptHtml).toContain('O texto do artigo começa aqui.');
  });
});

describe('the text of a new edition', () => {
  it('titles it with the words of its slug', () => {
    expect(slugTitle('Kubernetes-Basics')).toBe('Kubernetes Basics');
    expect(slugTitle('DangerousLiaisons')).toBe('Dangerous Liaisons');
    expect(slugTitle('dotnetWebAPIAzure')).toBe('dotnet Web API Azure');
    expect(slugTitle('easter_concert--2023')).toBe('easter concert 2023');
  });

  it('dates it by the day it is given, and quotes its title so that YAML keeps it a string', () => {
    for (const slug of ['2024', 'No', 'null', 'True']) {
      const text = starterText(slug, 'en', '2031-05-06');
      const front = ArticleFrontMatter.parse(matter(text, {}).data);
      expect(front).toMatchObject({ title: slug, date: '2031-05-06', draft: true });
    }
  });
});
