import { readFile, writeFile } from 'node:fs/promises';
import { PROJECT_ROOT } from '../support/content';
import { type EventLog, listen, startDev } from '../support/dev';
import { type Stats, stats } from './measure';
import { withTitle } from './synthetic';

export interface DevFigures {
  /** From writing the file to the reload event reaching a connected client, per body edit. */
  saveToReloadMs: Stats;
  /** The same when the edit changes the article's front-matter title (and nothing else). */
  titleSaveToReloadMs: Stats;
  /**
   * From writing the file to the server's answer, holding the edit, to the page request the tab
   * makes at the reload event (body edits): what the owner waits for, the server's own work
   * after a build included.
   */
  saveToPageMs: Stats;
  /** Edits of each kind. */
  edits: number;
}

/**
 * Waits as the owner does between saves: at least `minMs`, and until the event stream has been
 * quiet for `quietMs` (the build that follows a save, indexes and listings included, is done).
 */
export async function settle(events: EventLog, minMs = 4000, quietMs = 2000, maxMs = 180_000): Promise<void> {
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, minMs));
  for (;;) {
    const last = events.events.at(-1)?.at ?? 0;
    const now = performance.now();
    if (now - last >= quietMs || now - started > maxMs) return;
    await new Promise((resolve) => setTimeout(resolve, quietMs - (now - last)));
  }
}

/**
 * Saves the file with `change` applied, and resolves with the time from the save to the reload
 * of `pageUrl`, and to the page served at that reload (`page`: asked for, as a tab does, from
 * `origin`; its answer must hold `shows`).
 */
async function saveToReload(
  events: EventLog,
  file: string,
  text: string,
  pageUrl: string,
  page?: { origin: string; shows: string },
): Promise<{ reload: number; page: number }> {
  const since = events.events.length;
  const saved = performance.now();
  await writeFile(file, text);
  for (let from = since; ; ) {
    const reload = await events.next('reload', { since: from, timeoutMs: 120_000 });
    const pages = reload.data.pages as string[];
    if (pages.includes(pageUrl) || pages.includes('*')) {
      if (!page) return { reload: reload.at - saved, page: Number.NaN };
      const html = await (await fetch(page.origin + pageUrl)).text();
      if (!html.includes(page.shows)) throw new Error(`${pageUrl} was served without the edit at its reload`);
      return { reload: reload.at - saved, page: performance.now() - saved };
    }
    from = events.events.indexOf(reload) + 1;
  }
}

/**
 * `site dev` on the synthetic site (already built, so its cache is warm), with one client on the
 * event stream: the same article is saved `edits` times with a new paragraph, then `edits` times
 * with a new title, each save once the previous one's builds are done.
 */
export async function devFigures(
  siteRoot: string,
  articleFile: string,
  pageUrl: string,
  edits = 7,
): Promise<DevFigures> {
  const dev = await startDev(PROJECT_ROOT, siteRoot);
  const events = await listen(`${dev.origin}/__dev/events`);
  const original = await readFile(articleFile, 'utf8');
  const title = /^title: (.*)$/m.exec(original)?.[1] ?? 'Untitled';
  const body: number[] = [];
  const served: number[] = [];
  const titled: number[] = [];
  let text = original;
  try {
    for (let edit = 1; edit <= edits; edit++) {
      await settle(events);
      text = original.replace(/\n\n/, `\n\nEdit number ${edit}, measured.\n\n`);
      const times = await saveToReload(events, articleFile, text, pageUrl, {
        origin: dev.origin,
        shows: `Edit number ${edit}, measured.`,
      });
      body.push(times.reload);
      served.push(times.page);
    }
    // The body stays as the last edit left it: these saves change the title alone.
    for (let edit = 1; edit <= edits; edit++) {
      await settle(events);
      titled.push(
        (await saveToReload(events, articleFile, withTitle(text, `${title} retitled ${edit}`), pageUrl)).reload,
      );
    }
  } finally {
    events.close();
    await dev.stop();
    await writeFile(articleFile, original);
  }
  return { saveToReloadMs: stats(body), titleSaveToReloadMs: stats(titled), saveToPageMs: stats(served), edits };
}
