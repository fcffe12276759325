import { readFile, writeFile } from 'node:fs/promises';
import { PROJECT_ROOT } from '../support/content';
import { listen, startDev } from '../support/dev';
import { stats, type Stats } from './measure';

export interface DevFigures {
  /** From writing the file to the reload event reaching a connected client, per edit. */
  saveToReloadMs: Stats;
  edits: number;
}

/**
 * `site dev` on the synthetic site (already built, so its cache is warm), with one client on the
 * event stream: the same article is saved `edits` times, a few seconds apart.
 */
export async function devFigures(siteRoot: string, articleFile: string, pageUrl: string, edits = 7): Promise<DevFigures> {
  const dev = await startDev(PROJECT_ROOT, siteRoot);
  const events = await listen(`${dev.origin}/__dev/events`);
  const original = await readFile(articleFile, 'utf8');
  const samples: number[] = [];
  try {
    for (let edit = 1; edit <= edits; edit++) {
      // As the owner saves: a few seconds apart, once the previous build (indexes included) is done.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      const since = events.events.length;
      const saved = performance.now();
      await writeFile(articleFile, original.replace(/\n\n/, `\n\nEdit number ${edit}, measured.\n\n`));
      for (let from = since; ; ) {
        const reload = await events.next('reload', { since: from, timeoutMs: 120_000 });
        if ((reload.data.pages as string[]).includes(pageUrl)) {
          samples.push(reload.at - saved);
          break;
        }
        from = events.events.indexOf(reload) + 1;
      }
    }
  } finally {
    events.close();
    await dev.stop();
    await writeFile(articleFile, original);
  }
  return { saveToReloadMs: stats(samples), edits };
}
