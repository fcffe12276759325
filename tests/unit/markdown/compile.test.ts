import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../../src/diagnostics/diagnostic';
import { compileMarkdown, type MarkdownProblem } from '../../../src/markdown/compile';
import { PROJECT_ROOT } from '../../support/content';

const options = {
  lang: 'pt' as const,
  localizeHref: (href: string) => (href.startsWith('/blog/tech/Git') ? `/pt${href}` : href),
  mediaUrl: (path: string) => `https://cdn.example.net${path}`,
};

/** The message a problem prints, from the diagnostic catalogue. */
const message = (p: MarkdownProblem) =>
  diagnostic(p.code, { file: 'x.md', line: p.line, column: p.column }, p.args).message;

describe('compileMarkdown', () => {
  it('gives headings GitHub-style ids and lists them', () => {
    const out = compileMarkdown('## Github Actions\n\nText.\n\n### Passo 2: publicação\n', options);
    expect(out.html).toContain(
      '<h2 id="github-actions"><a class="section-link" href="#github-actions">Github Actions</a></h2>',
    );
    expect(out.headings.map((h) => [h.depth, h.id, h.text])).toEqual([
      [2, 'github-actions', 'Github Actions'],
      [3, 'passo-2-publicação', 'Passo 2: publicação'],
    ]);
  });

  it('makes each section heading a link to itself, which neither the checker nor the search reads', () => {
    const out = compileMarkdown(
      '# Title\n\n## One\n\nWords here.\n\n#### Deep *one*\n\n## See [Git](/blog/tech/Git)\n\n##\n',
      options,
    );
    expect(out.html).toContain('<h1 id="title">Title</h1>');
    expect(out.html).toContain('<h4 id="deep-one"><a class="section-link" href="#deep-one">Deep <em>one</em></a></h4>');
    // A heading holding a link, or no words, is left as it is.
    expect(out.html).toContain('<h2 id="see-git">See <a href="/pt/blog/tech/Git">Git</a></h2>');
    expect(out.html).toContain('<h2 id=""></h2>');
    expect(out.html.match(/class="section-link"/g)).toHaveLength(2);
    expect(out.references.map((r) => r.href)).toEqual(['/blog/tech/Git']);
    expect(out.text).toBe('Title One Words here. Deep one See Git');
  });

  it('counts the words of the text, for the reading time', () => {
    expect(compileMarkdown('## A heading\n\nFour words in here, `and code`.\n\n- a list item\n', options).words).toBe(
      11,
    );
    expect(compileMarkdown('', options).words).toBe(0);
  });

  it('turns a figure directive into a figure with its caption, alt text and width', () => {
    const out = compileMarkdown('::figure[O jardim *moderno*]{src="/media/a.svg" width="60"}\n', options);
    expect(out.problems).toEqual([]);
    expect(out.html).toContain('<figure class="figure" style="width:60%">');
    expect(out.html).toContain(
      '<img src="https://cdn.example.net/media/a.svg" alt="O jardim moderno" loading="lazy" decoding="async">',
    );
    expect(out.html).toContain('<figcaption>O jardim <em>moderno</em></figcaption>');
  });

  it('links addresses written as plain text as GFM does, underscores in them included', () => {
    // Underscores around a word would be emphasis anywhere else: inside an address they are part of it.
    const withEmail = compileMarkdown(
      'Escreva para _eu_@example.com ou veja https://example.org/_a_/ hoje.\n',
      options,
    );
    expect(withEmail.html).toContain('<a href="mailto:_eu_@example.com">_eu_@example.com</a>');
    expect(withEmail.html).toContain(
      '<a href="https://example.org/_a_/" target="_blank" rel="noopener noreferrer">https://example.org/_a_/</a>',
    );
    const withoutEmail = compileMarkdown(
      'Veja www.example.com/_a_/ e https://example.org/_b_/ hoje; *isto* é _ênfase_.\n',
      options,
    );
    expect(withoutEmail.html).toBe(
      '<p>Veja <a href="http://www.example.com/_a_/" target="_blank" rel="noopener noreferrer">www.example.com/_a_/</a> e <a href="https://example.org/_b_/" target="_blank" rel="noopener noreferrer">https://example.org/_b_/</a> hoje; <em>isto</em> é <em>ênfase</em>.</p>',
    );
  });

  it("renders each of GFM's constructs wherever a text holds one, the rest of the text alike", () => {
    const html = (markdown: string) => compileMarkdown(markdown, options).html;
    // A table with no pipe at all: its delimiter row is told by its alignment colon.
    expect(html('Preço\n-:\n')).toContain('<th align="right">Preço</th>');
    expect(html('> a | b\n> --- | ---\n> 1 | 2\n')).toContain('<td>2</td>');
    expect(html('Uma nota[^n].\n\n[^n]: O texto dela.\n')).toContain('<section data-footnotes class="footnotes">');
    expect(html('Isto ~~não~~ fica.\n')).toContain('<del>não</del>');
    expect(html('Veja WWW.example.com hoje.\n')).toContain('<a href="http://WWW.example.com"');
    expect(html('Veja HTTPS://example.com hoje.\n')).toContain('<a href="HTTPS://example.com"');
    expect(html('Escreva a eu@example.com hoje.\n')).toContain('<a href="mailto:eu@example.com">');
  });

  it('links an address its text spells with character references, as GFM does', () => {
    // The markdown holds no "@", "www." or "http://": the text GFM reads, once the references are decoded, does.
    const html = (markdown: string) => compileMarkdown(markdown, options).html;
    expect(html('Escreva a eu&#64;example.com hoje.\n')).toContain(
      '<a href="mailto:eu@example.com">eu@example.com</a>',
    );
    expect(html('Veja www&period;example.com hoje.\n')).toContain(
      '<a href="http://www.example.com" target="_blank" rel="noopener noreferrer">www.example.com</a>',
    );
    expect(html('Veja http&#58;&#47;&#47;example.com hoje.\n')).toContain(
      '<a href="http://example.com" target="_blank" rel="noopener noreferrer">http://example.com</a>',
    );
  });

  it("compiles every article of the site as it does with all of GFM's constructs in play", async () => {
    // The trailer holds what every construct needs, in a code span: the text before it is parsed with all of them.
    // An "@" also stands in its text, outside the span, so that GFM looks for literal addresses in all the text.
    const trailer = '\n\nTRAILER `| [^ ~ @ www. https://` @\n';
    const trailed = /\n?<p>TRAILER <code>\| \[\^ ~ @ www\. https:\/\/<\/code> @<\/p>/;
    const files = (await readdir(path.join(PROJECT_ROOT, 'content/blog'), { recursive: true })).filter((file) =>
      file.endsWith('.md'),
    );
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const body = matter(await readFile(path.join(PROJECT_ROOT, 'content/blog', file), 'utf8')).content;
      expect(compileMarkdown(body + trailer, options).html.replace(trailed, ''), file).toBe(
        compileMarkdown(body, options).html,
      );
    }
  });

  it('reports a figure without a source or caption', () => {
    const out = compileMarkdown('Intro.\n\n::figure{width="300"}\n', options);
    expect(out.problems.map((p) => [p.line, message(p)])).toEqual([
      [3, 'figure without src'],
      [3, 'figure without a caption (its description)'],
      [3, 'figure width "300" is not a percentage from 1 to 100'],
    ]);
  });

  it('points internal links at the page language and opens external links in a new tab', () => {
    const out = compileMarkdown('[Git](/blog/tech/Git#github-actions) and [docs](https://docs.docker.com)', options);
    expect(out.html).toContain('<a href="/pt/blog/tech/Git#github-actions">Git</a>');
    expect(out.html).toContain('<a href="https://docs.docker.com" target="_blank" rel="noopener noreferrer">docs</a>');
    expect(out.references.map((r) => r.href)).toEqual(['/blog/tech/Git#github-actions', 'https://docs.docker.com']);
  });

  it('keeps prose with a colon as text and drops raw HTML', () => {
    const out = compileMarkdown('Hora:minuto às 10:30 <script>alert(1)</script>', options);
    expect(out.html).toContain('Hora:minuto às 10:30');
    expect(out.html).not.toContain('<script>');
  });

  it('colours the tokens of a fenced code block and names its language on a bar above it', () => {
    const out = compileMarkdown('```ts\nconst a: number = 1; // one\n```\n', options);
    expect(out.html).toBe(
      '<div class="code-block"><div class="code-block__bar" data-lang="TypeScript"></div><pre tabindex="0"><code class="language-ts hljs"><span class="hljs-keyword">const</span> ' +
        '<span class="hljs-attr">a</span>: <span class="hljs-built_in">number</span> = <span class="hljs-number">1</span>; <span class="hljs-comment">// one</span>\n</code></pre></div>',
    );
    expect(out.problems).toEqual([]);
    // The language's name is no word of the text: the search and the reading time see the code alone.
    expect(out.text).toBe('const a: number = 1; // one');
  });

  it('colours every language the articles use', () => {
    const tags = [
      'bash',
      'sh',
      'http',
      'json',
      'yaml',
      'yml',
      'ts',
      'typescript',
      'js',
      'javascript',
      'dockerfile',
      'python',
      'csharp',
      'cs',
      'sql',
      'xml',
      'html',
      'powershell',
      'ps1',
      'css',
      'diff',
    ];
    for (const tag of tags) {
      const out = compileMarkdown(
        `\`\`\`${tag}\nGET /x HTTP/1.1\nname: "y" 1\n<a href="y">z</a>\n+ added\n\`\`\`\n`,
        options,
      );
      expect(out.problems, tag).toEqual([]);
      expect(out.html, tag).toContain(' hljs">');
      // Some token of the line is coloured (a string, a keyword, a number, a tag...).
      expect(out.html, tag).toMatch(/<span class="hljs-[a-z_]+/);
    }
  });

  it('shows a block in a language it cannot colour as plain text, and reports it (MD002) where the fence is', () => {
    const out = compileMarkdown('Text.\n\n```brainfudge\n+++[>+<-]\n```\n\n```\nplain, no language\n```\n', options);
    expect(out.problems.map((p) => [p.code, p.args, p.line, p.column])).toEqual([
      ['MD002', { language: 'brainfudge' }, 3, 1],
    ]);
    expect(out.html).toContain(
      '<div class="code-block"><div class="code-block__bar" data-lang="brainfudge"></div><pre tabindex="0"><code class="language-brainfudge">+++[>+&#x3C;-]\n</code></pre></div>',
    );
    expect(out.html).toContain('<pre tabindex="0"><code>plain, no language\n</code></pre>');
    expect(out.html.match(/code-block"/g)).toHaveLength(1);
  });

  it('keeps addresses a page may not carry out of the HTML and reports each (URL001)', () => {
    const out = compileMarkdown(
      '[a](javascript:alert(1)) [b](//evil.example/x) [c](mailto:me@example.com) [d](/blog/tech/Git)\n\n![e](data:image/png;base64,AA)\n',
      options,
    );
    expect(out.problems.map((p) => [p.code, p.line])).toEqual([
      ['URL001', 1],
      ['URL001', 1],
      ['URL001', 3],
    ]);
    expect(out.html).not.toMatch(/javascript:|evil\.example|data:/);
    expect(out.html).toContain('href="mailto:me@example.com"');
    expect(out.html).toContain('href="/pt/blog/tech/Git"');
  });

  it('refuses text nested too deep before it reaches the recursive tree walks (DEPTH001)', () => {
    const dense = [
      // Each of these took the parser from 5 to 50 s.
      `${'[ '.repeat(20_000)}x${' ]'.repeat(20_000)}(/a)\n`,
      `${'*a_'.repeat(20_000)}\n`,
      `${':a['.repeat(20_000)}${']'.repeat(20_000)}\n`,
      `${'['.repeat(50_000)}x${']'.repeat(50_000)}\n`,
      // Under the limit in each paragraph, over it in the text.
      `${'*a* '.repeat(400)}\n\n`.repeat(15),
    ];
    for (const markdown of [
      `${'>'.repeat(20_000)} deep\n`,
      `${'*'.repeat(20_000)}x${'*'.repeat(20_000)}\n`,
      Array.from({ length: 80 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n'),
      ...dense,
    ]) {
      const out = compileMarkdown(markdown, options);
      expect(out.problems.map((p) => p.code)).toEqual(['DEPTH001']);
      expect(out.html).toBe('');
    }
    // Deep but sensible nesting, a thematic break of stars and a long run inside code are fine.
    const fine = compileMarkdown(`> > > quoted\n\n${'*'.repeat(80)}\n\n\`\`\`\n${'*'.repeat(200)}\n\`\`\`\n`, options);
    expect(fine.problems).toEqual([]);
    expect(fine.html).toContain('<hr>');
  });

  it("keeps a Portuguese text's marks of register, by offset in the markdown, and none for an English one", () => {
    const markdown =
      'Podes ver o código.\n\n```\nLeia isto\n```\n\n> Clique «aqui», diz você.\n\nVeja [o teu guia](/blog/tech/Git).\n';
    const marks = compileMarkdown(markdown, options).register.map(
      (m) => `${m.register} ${m.words} ${markdown.slice(m.offset, m.offset + m.words.length)}`,
    );
    // The code block and the link target are not the author speaking; a quotation's words in «» neither.
    expect(marks).toEqual(['tu Podes Podes', 'você Clique Clique', 'você você você', 'você Veja Veja', 'tu teu teu']);
    expect(compileMarkdown(markdown, { ...options, lang: 'en' }).register).toEqual([]);
  });

  it('turns a failure of the compiler on one text into a problem of that text (INTERNAL001)', () => {
    const out = compileMarkdown('[a link](/blog/tech/Git)\n', {
      ...options,
      localizeHref: () => {
        throw new Error('no route table');
      },
    });
    expect(out.problems).toEqual([
      { code: 'INTERNAL001', args: { kind: 'markdown', fault: 'no route table' }, line: 0, column: 0 },
    ]);
    expect(message(out.problems[0]!)).toBe('the markdown could not be compiled: no route table');
    // Under --verbose (SITE_VERBOSE) the message says where in the code it happened.
    process.env.SITE_VERBOSE = '1';
    try {
      const verbose = compileMarkdown('[a link](/blog/tech/Git)\n', {
        ...options,
        localizeHref: () => {
          throw new Error('no route table');
        },
      });
      expect(message(verbose.problems[0]!)).toMatch(/no route table\n\s+at .*compile\.test\.ts/);
    } finally {
      delete process.env.SITE_VERBOSE;
    }
  });
});
