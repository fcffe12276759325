import { execFile } from 'node:child_process';
import { readFile, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EventLog, listen, type RunningDev, startDev } from '../../support/dev';
import { copyOfTool, differences, filesUnder } from '../../support/tool';

const run = promisify(execFile);

/**
 * `site dev` on a private copy of the tool and content: files are edited, added, renamed and
 * deleted on disk while a client listens to the event stream, as an open tab does.
 */
describe('site dev', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  let dev: RunningDev;
  let events: EventLog;

  const file = (relative: string) => path.join(root, relative);
  const page = async (url: string) => {
    const response = await fetch(dev.origin + url);
    return { status: response.status, html: await response.text() };
  };
  const edit = async (relative: string, change: (text: string) => string) => {
    const before = await readFile(file(relative), 'utf8');
    const after = change(before);
    expect(after, `the edit changes ${relative}`).not.toBe(before);
    await writeFile(file(relative), after);
  };
  const reloadOf = async (url: string, since: number) => {
    for (;;) {
      const event = await events.next('reload', { since });
      if ((event.data.pages as string[]).includes(url)) return event;
      since = events.events.indexOf(event) + 1;
    }
  };

  /** The builds `site dev` has finished so far, by the lines it printed. */
  const rebuilds = () =>
    dev
      .output()
      .split('\n')
      .filter((line) => line.startsWith('✓ rebuilt')).length;
  const until = async (done: () => boolean) => {
    for (const started = Date.now(); !done(); ) {
      if (Date.now() - started > 30_000) throw new Error('site dev did not finish the build');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  beforeAll(async () => {
    ({ root, cleanup } = await copyOfTool());
    dev = await startDev(root, root);
    events = await listen(`${dev.origin}/__dev/events`);
  }, 120_000);

  // What site dev printed tells why a build did not come (the events only tell that it did not).
  afterEach((context) => {
    if (context.task.result?.state === 'fail') console.error(`site dev printed:\n${dev.output().slice(-4000)}`);
  });

  afterAll(async () => {
    events?.close();
    await dev?.stop();
    await cleanup();
  });

  it('serves every page with the dev client, which the built files never contain', async () => {
    const { html } = await page('/blog/tech/Site');
    expect(html).toContain('<script src="/__dev/client.js" data-dev-page="/blog/tech/Site" defer></script>');
    expect((await page('/no-such-page')).html).toContain('data-dev-page="/404"');
    expect(await readFile(file('.cache/dev/blog/tech/Site.html'), 'utf8')).not.toContain('__dev');
    const script = await fetch(`${dev.origin}/__dev/client.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain('EventSource');
  });

  it('rebuilds an edited article and tells the tabs showing it to reload, once', async () => {
    const since = events.events.length;
    const built = rebuilds();
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('## The book', 'Letters, intrigue and a wager.\n\n## The book'),
    );
    const reload = await reloadOf('/blog/books/DangerousLiaisons', since);
    expect(reload.data.pages).not.toContain('/aboutme');
    expect((await page('/blog/books/DangerousLiaisons')).html).toContain('Letters, intrigue and a wager.');
    // The page is reloaded as soon as it is in place, and not again when the rest of the build is done.
    await until(() => rebuilds() > built);
    const reloads = events.events
      .slice(since)
      .filter(
        (event) => event.type === 'reload' && (event.data.pages as string[]).includes('/blog/books/DangerousLiaisons'),
      );
    expect(reloads).toHaveLength(1);
    // (A save the watcher reports twice, far enough apart, is built twice: the second build changes nothing.)
    const finished = dev
      .output()
      .split('\n')
      .filter((line) => line.startsWith('✓ rebuilt'))
      .slice(built);
    expect(finished.find((line) => !/: 0 pages changed$/.test(line))).toMatch(/: 1 page changed$/);
  });

  it('rebuilds an edited body as its one page, and refuses an edit that breaks a link into another article', async () => {
    // A link from another article into a section of this one.
    let since = events.events.length;
    await edit('content/blog/tech/Site.en.md', (t) =>
      t.replace(/\n\n/, '\n\nSee [the book section](/blog/books/DangerousLiaisons#the-book).\n\n'),
    );
    await reloadOf('/blog/tech/Site', since);
    expect(dev.output()).toMatch(/rebuilt in \d+ ms: 1 page changed/);

    // Renaming the section breaks that link: an error, and the last good page stays.
    since = events.events.length;
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace('## The book', '## The novel'));
    const failed = await events.next('errors', { since });
    expect(failed.data.errors).toEqual([
      expect.objectContaining({ file: 'content/blog/tech/Site.en.md', code: 'ANCHOR001' }),
    ]);
    expect((await page('/blog/books/DangerousLiaisons')).html).toContain('The book');

    since = events.events.length;
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace('## The novel', '## The book'));
    await events.next('ok', { since });
    since = events.events.length;
    await edit('content/blog/tech/Site.en.md', (t) =>
      t.replace('See [the book section](/blog/books/DangerousLiaisons#the-book).\n\n', ''),
    );
    await reloadOf('/blog/tech/Site', since);
    expect((await page('/blog/tech/Site')).html).not.toContain('the book section');
  });

  it('updates the search index after the pages, and the API answers from it', async () => {
    const since = events.events.length;
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('title: Dangerous Liaisons', 'title: Dangerous Liaisons in Zanzibar'),
    );
    await reloadOf('/blog/books/DangerousLiaisons', since);
    const found = async () => {
      const response = await fetch(`${dev.origin}/api/blog_posts/search?searchWord=zanzibar&language=en`);
      return JSON.stringify(await response.json());
    };
    for (let attempt = 0; attempt < 100 && !(await found()).includes('/blog/books/DangerousLiaisons'); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await found()).toContain('/blog/books/DangerousLiaisons');
  });

  it('shows a mistake in the overlay payload, keeps serving the last good page, and clears it when fixed', async () => {
    let since = events.events.length;
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('Letters, intrigue and a wager.', 'Letters and [a wager](/blog/books/Nowhere).'),
    );
    const failed = await events.next('errors', { since });
    const [error] = failed.data.errors as {
      file: string;
      line: number;
      column: number;
      code: string;
      message: string;
      hint: string;
      frame: string;
    }[];
    expect(error).toMatchObject({ file: 'content/blog/books/DangerousLiaisons.en.md', line: 7, code: 'LINK001' });
    expect(error?.message).toContain('/blog/books/Nowhere');
    expect(error?.frame).toMatch(/> 7 \| Letters and \[a wager\]\(\/blog\/books\/Nowhere\)\.\n.*\^/);
    expect(error?.hint.length).toBeGreaterThan(10);
    expect(dev.output()).toMatch(/DangerousLiaisons\.en\.md:7:\d+ error LINK001/);
    expect((await page('/blog/books/DangerousLiaisons')).html).toContain('Letters, intrigue and a wager.');

    since = events.events.length;
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
      t.replace('Letters and [a wager](/blog/books/Nowhere).', 'Letters and a wager.'),
    );
    await events.next('ok', { since });
    await reloadOf('/blog/books/DangerousLiaisons', since);
    expect((await page('/blog/books/DangerousLiaisons')).html).toContain('Letters and a wager.');
  });

  it('a tab that opens while the build is broken is told the errors at once', async () => {
    const since = events.events.length;
    await edit('content/blog/books/DangerousLiaisons.en.md', (t) => t.replace('date: 2023-11-05', 'date: 5 November'));
    try {
      // On a busy machine the watcher may hear the save half-written (a file cut short has no front
      // matter, FM001) before the build of the whole file: wait for that one.
      for (let from = since; ; ) {
        const failed = await events.next('errors', { since: from });
        if (JSON.stringify(failed.data).includes('SCHEMA')) break;
        from = events.events.indexOf(failed) + 1;
      }
      const late = await listen(`${dev.origin}/__dev/events`);
      try {
        const told = await late.next('errors', { since: 0, timeoutMs: 5000 });
        expect(JSON.stringify(told.data)).toContain('SCHEMA');
      } finally {
        late.close();
      }
    } finally {
      await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
        t.replace('date: 5 November', 'date: 2023-11-05'),
      );
    }
    await events.next('ok', { since });
  });

  it('adds, renames and deletes articles without a restart', async () => {
    let since = events.events.length;
    await writeFile(
      file('content/blog/books/Added.en.md'),
      '---\ntitle: An added article\ndescription: Written while the dev server runs.\ndate: 2026-01-02\n---\n\nFresh words.\n',
    );
    await reloadOf('/blog/books/Added', since);
    expect((await page('/blog/books/Added')).html).toContain('Fresh words.');
    expect((await page('/blog/books')).html).toContain('An added article');

    since = events.events.length;
    await rename(file('content/blog/books/Added.en.md'), file('content/blog/books/Renamed.en.md'));
    await reloadOf('/blog/books/Renamed', since);
    expect((await page('/blog/books/Renamed')).status).toBe(200);
    // The new page is put in place (and its tabs reloaded) ahead of the rest of the build; the old
    // one is gone once the build is done, and the tabs showing it are told then.
    await reloadOf('/blog/books/Added', since);
    expect((await page('/blog/books/Added')).status).toBe(404);

    since = events.events.length;
    await unlink(file('content/blog/books/Renamed.en.md'));
    await reloadOf('/blog/books/Renamed', since);
    expect((await page('/blog/books/Renamed')).status).toBe(404);
    expect((await page('/blog/books')).html).not.toContain('An added article');
  });

  it('turns links to a deleted article into diagnostics, and recovers when it is back', async () => {
    const kept = await readFile(file('content/blog/culture/gulbenkian.pt.md'), 'utf8');
    const since = events.events.length;
    await unlink(file('content/blog/culture/gulbenkian.pt.md'));
    const failed = await events.next('errors', { since });
    expect(failed.data.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: 'content/blog/tech/Site.pt.md', code: 'LINK001' })]),
    );
    expect((await page('/blog/culture/gulbenkian')).status).toBe(200);
    await writeFile(file('content/blog/culture/gulbenkian.pt.md'), kept);
    await events.next('ok', { since });
  });

  it('keeps, while only content changes, every page as a build from scratch makes it', async () => {
    // The build thread is the same since the start: pages it judged unchanged were not even keyed.
    let since = events.events.length;
    await writeFile(
      file('content/blog/books/Second.en.md'),
      '---\ntitle: A second book\ndescription: Listed after the first.\ndate: 2001-01-01\n---\n\nPages.\n',
    );
    await reloadOf('/blog/books/Second', since);
    const order = async () => {
      const { html } = await page('/blog/books');
      return html.indexOf('Second') < html.indexOf('DangerousLiaisons') ? 'second first' : 'second last';
    };
    expect(await order()).toBe('second last');
    // The listing shows titles, descriptions and dates, newest first: all three change here.
    since = events.events.length;
    await edit('content/blog/books/Second.en.md', (t) =>
      t
        .replace('date: 2001-01-01', 'date: 2030-01-01')
        .replace('Listed after the first.', 'Now listed first.')
        .replace('A second book', 'A newer book'),
    );
    await reloadOf('/blog/books', since);
    expect((await page('/blog/books')).html).toContain('Now listed first.');
    expect((await page('/blog')).html).toContain('A newer book');
    expect(await order()).toBe('second first');
    since = events.events.length;
    await edit('content/categories/books.json', (t) => t.replace('"en": "📚 Books"', '"en": "📚 Books and letters"'));
    await reloadOf('/blog/books/DangerousLiaisons', since);
    expect((await page('/blog/books/DangerousLiaisons')).html).toContain('Books and letters');
    await expectAsBuiltFromScratch('dist-content');
  });

  it('survives damaged content of every kind: the overlay names the file and code, the last good pages stay, a fix recovers', async () => {
    const damages: { file: string; code: string; damage: () => Promise<void>; repair: () => Promise<void> }[] = [];
    const rewrite = (relative: string, change: (bytes: Buffer) => Buffer | string) => {
      let original: Buffer;
      damages.push({
        file: relative,
        code: '',
        damage: async () => {
          original = await readFile(file(relative));
          await writeFile(file(relative), change(original));
        },
        repair: () => writeFile(file(relative), original),
      });
      return damages[damages.length - 1] as (typeof damages)[number];
    };
    rewrite('content/categories/books.json', (b) => b.subarray(0, b.length / 2)).code = 'JSON001';
    rewrite('content/pages/blog.json', () => '['.repeat(50_000)).code = 'DEPTH001';
    rewrite(
      'content/blog/books/DangerousLiaisons.pt.md',
      (b) => `${b.toString()}\n${'>'.repeat(20_000)} fundo\n`,
    ).code = 'DEPTH001';
    rewrite('content/blog/books/DangerousLiaisons.pt.md', (b) => Buffer.concat([b, Buffer.from([0xff, 0xfe])])).code =
      'TEXT001';
    rewrite(
      'content/blog/books/DangerousLiaisons.pt.md',
      (b) => `${b.toString()}\n[ligação](javascript:alert(1))\n`,
    ).code = 'URL001';
    damages.push({
      file: 'content/blog/books/Ghost.en.md',
      code: 'FILE001',
      damage: () => symlink('../../nowhere/Ghost.en.md', file('content/blog/books/Ghost.en.md')),
      repair: () => unlink(file('content/blog/books/Ghost.en.md')),
    });
    for (const { file: relative, code, damage, repair } of damages) {
      let since = events.events.length;
      await damage();
      const failed = await events.next('errors', { since }).catch((error: Error) => {
        throw new Error(`after ${code} on ${relative}: ${error.message}\n${dev.output().slice(-2000)}`);
      });
      expect(failed.data.errors, `${code} on ${relative}`).toContainEqual(
        expect.objectContaining({ file: relative, code }),
      );
      expect((await page('/blog/books/DangerousLiaisons')).status).toBe(200);
      expect((await page('/pt/blog/books/DangerousLiaisons')).html).not.toContain('javascript:');
      since = events.events.length;
      await repair();
      await events.next('ok', { since }).catch((error: Error) => {
        throw new Error(`after repairing ${code} on ${relative}: ${error.message}\n${dev.output().slice(-2000)}`);
      });
    }
    expect(dev.output()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });

  it('applies a stylesheet change without reloading', async () => {
    const since = events.events.length;
    await edit('templates/styles/base.css', (t) => `${t}\n.dev-test-marker { color: rebeccapurple; }\n`);
    await events.next('css', { since });
    expect(events.events.slice(since).map((e) => e.type)).not.toContain('reload');
  });

  it('takes a template change without a restart, and shows a template error until it is fixed', async () => {
    let since = events.events.length;
    await edit('templates/pages/Article.tsx', (t) =>
      t.replace('<article className="section article">', '<article className="section article" data-dev-edit="">'),
    );
    await reloadOf('/blog/tech/Site', since);
    expect((await page('/blog/tech/Site')).html).toContain('data-dev-edit=""');

    since = events.events.length;
    await edit('templates/pages/Article.tsx', (t) =>
      t.replace(
        '<article className="section article" data-dev-edit="">',
        '<article className="section article" data-dev-edit="">{',
      ),
    );
    const failed = await events.next('errors', { since });
    const [error] = failed.data.errors as { file: string; line: number }[];
    expect(error?.file).toBe('templates/pages/Article.tsx');
    expect(error?.line).toBeGreaterThan(0);
    expect((await page('/blog/tech/Site')).status).toBe(200);

    since = events.events.length;
    await edit('templates/pages/Article.tsx', (t) => t.replace('data-dev-edit="">{', 'data-dev-edit="">'));
    await events.next('ok', { since });
  });

  it('shows an exception a template throws while rendering at its line in the template', async () => {
    let since = events.events.length;
    await edit('templates/pages/Article.tsx', (t) =>
      t.replace(
        '  const s = chrome.strings;\n',
        "  const s = chrome.strings;\n  if (page) throw new Error('a template fault');\n",
      ),
    );
    const failed = await events.next('errors', { since });
    const [error] = failed.data.errors as { file: string; line: number; message: string }[];
    expect(error).toMatchObject({ file: 'templates/pages/Article.tsx', line: 7, message: 'a template fault' });

    since = events.events.length;
    await edit('templates/pages/Article.tsx', (t) =>
      t.replace("  if (page) throw new Error('a template fault');\n", ''),
    );
    await events.next('ok', { since });
  });

  it('coalesces a burst of saves and serves the last one', async () => {
    const since = events.events.length;
    for (let n = 1; n <= 5; n++) {
      await edit('content/blog/books/DangerousLiaisons.en.md', (t) =>
        t.replace(/Letters and a wager\.( \(take \d\))?/, `Letters and a wager. (take ${n})`),
      );
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await reloadOf('/blog/books/DangerousLiaisons', since);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await page('/blog/books/DangerousLiaisons')).html).toContain('(take 5)');
    expect(events.events.slice(since).filter((e) => e.type === 'reload').length).toBeLessThanOrEqual(2);
  });

  it('lists drafts and translations behind in the corner of every tab, and updates the list on each save', async () => {
    type Listed = { file: string; code: string; message: string };
    const listed = async (since: number, holds: (warnings: Listed[]) => boolean) => {
      for (;;) {
        const event = await events.next('warnings', { since });
        const warnings = event.data.warnings as Listed[];
        if (holds(warnings)) return warnings;
        since = events.events.indexOf(event) + 1;
      }
    };
    const draft = 'content/blog/tech/Roadmap.en.md';
    let since = events.events.length;
    await writeFile(
      file(draft),
      '---\ntitle: A roadmap\ndescription: What comes next.\ndate: 2026-01-10\ndraft: true\n---\n\nSoon.\n',
    );
    let warnings = await listed(since, (w) => w.some((d) => d.file === draft));
    expect(warnings.find((d) => d.file === draft)).toMatchObject({
      code: 'DRAFT002',
      message: 'this English edition is a draft: site build leaves it out',
    });
    expect((await page('/blog/tech/Roadmap')).html).toContain('<span class="status">Draft</span>');

    // The English edition of a bilingual article rewritten: its Portuguese one is listed as behind.
    since = events.events.length;
    await edit(
      'content/blog/tech/Site.en.md',
      (t) => `${t}\n## One more thing\n\nA section the Portuguese edition does not have.\n`,
    );
    warnings = await listed(since, (w) => w.some((d) => d.file === 'content/blog/tech/Site.pt.md'));
    expect(warnings.find((d) => d.file === 'content/blog/tech/Site.pt.md')).toMatchObject({ code: 'TRANS001' });
    expect(warnings.find((d) => d.file === 'content/blog/tech/Site.pt.md')?.message).toContain(
      '"One more thing" changed',
    );
    expect((await page('/pt/blog/tech/Site')).html).toContain('role="note"');

    // Brought in line (site translations sync), and the draft gone: both leave the list.
    since = events.events.length;
    await run(process.execPath, [
      path.join(root, 'bin', 'site'),
      '--root',
      root,
      'translations',
      'sync',
      'content/blog/tech/Site.pt.md',
    ]);
    await unlink(file(draft));
    warnings = await listed(
      since,
      (w) => !w.some((d) => d.file === 'content/blog/tech/Site.pt.md' || d.file === draft),
    );
    expect(warnings.some((d) => d.file === draft)).toBe(false);
    // Still listed: the article dated 2030 earlier in this file, scheduled.
    expect(warnings.find((d) => d.file === 'content/blog/books/Second.en.md')).toMatchObject({
      code: 'DRAFT002',
      message: 'this English edition is scheduled for 2030-01-01: a build before that day leaves it out',
    });
    await reloadOf('/pt/blog/tech/Site', since);
    expect((await page('/pt/blog/tech/Site')).html).not.toContain('role="note"');
  });

  it('leaves its output folder, file for file, as a build from scratch of the same files makes it', async () => {
    await expectAsBuiltFromScratch('dist-cold');
  });

  /**
   * The dev output, once the search indexes have followed the pages, against `site build --drafts
   * --no-cache` (site dev shows drafts, marked).
   */
  async function expectAsBuiltFromScratch(out: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await run(process.execPath, [
      path.join(root, 'bin', 'site'),
      '--root',
      root,
      'build',
      '--drafts',
      '--no-cache',
      '--quiet',
      '--out',
      out,
    ]);
    const [live, cold] = await Promise.all([filesUnder(file('.cache/dev')), filesUnder(file(out))]);
    // Files replaced in place are not compressed again (the dev server sends pages as they are);
    // a compressed copy that is there must be the current one.
    const compressed = (name: string) => /\.(br|gz)$/.test(name);
    for (const name of [...cold.keys()].filter(compressed)) if (!live.has(name)) cold.delete(name);
    expect(differences(live, cold)).toEqual([]);
  }
});

/**
 * A tab reloads as soon as a save's pages are in place, while the build goes on to the search
 * indexes and the rest: an owner who stops `site dev` right after seeing the page stops it in the
 * middle of that build. Its thread is ended, and no other is started to build its changes again.
 */
describe('site dev stopping', () => {
  it('exits at SIGTERM that comes in the middle of a build', async () => {
    const { root, cleanup } = await copyOfTool();
    const dev = await startDev(root, root);
    const events = await listen(`${dev.origin}/__dev/events`);
    try {
      // A stylesheet change renders every page again: the signal comes while that build runs.
      const styles = path.join(root, 'templates/styles/base.css');
      await writeFile(styles, `${await readFile(styles, 'utf8')}\n.dev-stop-marker { color: teal; }\n`);
      await new Promise((resolve) => setTimeout(resolve, 60));
      const exited = await Promise.race([
        dev.stop().then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]);
      expect(exited, dev.output()).toBe(true);
    } finally {
      events.close();
      dev.kill();
      await cleanup();
    }
  }, 120_000);
});
