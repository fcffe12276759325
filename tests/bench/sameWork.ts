import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/content';
import { ELEVENTY, eleventyBuild, eleventySameBuild, prepareEleventy, prepareEleventySame } from './eleventy';
import { FLOOR_PACKAGES, floorBuild, prepareFloor } from './floor';
import { type Repeated, repeat, type Stats, type Timed } from './measure';
import type { SyntheticArticle } from './synthetic';
import { versionsIn } from './tools';
import { checkWork, expectedWork, type WorkDone, WorkMissing } from './work';

/** One system's cold build in the comparison: whole process, the median of the runs. */
export interface SystemFigures {
  /** What it is and does, for the table. */
  label: string;
  versions: Record<string, string>;
  pages: number;
  ms: Stats;
  perPageMs: number;
  cpuMs: Stats;
  peakRssMb: Stats;
  /** What it was found to have made (the plain Eleventy run is only counted). */
  work?: WorkDone;
}

export interface SameWorkFigures {
  /** What our cold build was found to have made. */
  ours: WorkDone;
  /**
   * Eleventy over the same markdown in one language, no highlighting, no images: the reference of
   * the rebuild budgets.
   */
  eleventy: SystemFigures;
  /** Eleventy doing the work our build does. */
  eleventySame: SystemFigures;
  /** The bare text pipeline, the floor. */
  floor: SystemFigures;
  /** The floor without remark-gfm, which our compiler turns on only where a text may need it. */
  floorWithoutGfm: SystemFigures;
}

function figures(
  label: string,
  versions: Record<string, string>,
  pages: number,
  runs: Repeated,
  work?: WorkDone,
): SystemFigures {
  return {
    label,
    versions,
    pages,
    ms: runs.ms,
    perPageMs: runs.ms.median / pages,
    cpuMs: runs.cpuMs,
    peakRssMb: runs.rssMb,
    ...(work ? { work } : {}),
  };
}

/**
 * The cold build against the same work, in the same run: checks that our last build (in
 * `siteRoot`/dist) did its work, then builds the same markdown `runs` times each with plain
 * Eleventy, Eleventy doing the same work and the bare pipeline, in folders under `scratch`, and
 * checks each did its own. Throws WorkMissing when one did not: no ratio is printed against it.
 */
export async function sameWorkFigures(
  siteRoot: string,
  scratch: string,
  articles: readonly SyntheticArticle[],
  runs: number,
): Promise<SameWorkFigures> {
  const expected = await expectedWork(siteRoot, articles);
  // Each system's builds one after the other, nothing done between them (each removes its own output first).
  const measured = (label: string, build: () => Promise<Timed>) => repeat(label, runs, async () => {}, build);
  const dist = path.join(siteRoot, 'dist');
  const ours = await checkWork(
    {
      system: 'site build',
      dir: dist,
      pageFile: (url) => path.join(dist, `${url}.html`),
      pages: 'at least',
      highlighter: 'hljs',
      imagesDir: path.join(dist, 'assets', 'media', 'blog', 'photos'),
    },
    expected,
  );

  process.stderr.write(`Eleventy (${ELEVENTY}), the same ${articles.length} markdown files in one language\n`);
  const plainDir = await prepareEleventy(siteRoot, path.join(scratch, 'eleventy'), articles);
  const plain = await measured('eleventy', () => eleventyBuild(plainDir));
  const plainPages = (await readdir(path.join(plainDir, '_site'), { recursive: true })).filter((file) =>
    file.endsWith('.html'),
  ).length;
  if (plainPages !== articles.length)
    throw new WorkMissing(
      `Eleventy wrote ${plainPages} HTML pages where ${articles.length} were expected (one per article)`,
    );

  process.stderr.write(`Eleventy doing the same work: ${expected.pages.length} editions, Prism, eleventy-img\n`);
  const sameDir = await prepareEleventySame(siteRoot, path.join(scratch, 'eleventy-same'), articles);
  const same = await measured('eleventy, same work', () => eleventySameBuild(sameDir));
  const site = path.join(sameDir, '_site');
  const sameWork = await checkWork(
    {
      system: 'Eleventy, same work',
      dir: site,
      pageFile: (url) => path.join(site, url, 'index.html'),
      pages: 'exact',
      highlighter: 'prism',
      imagesDir: path.join(site, 'img'),
    },
    expected,
  );
  // Our encoder's settings, as eleventy.ts gives them to eleventy-img: the same sharp makes the same files.
  for (const [format, bytes] of Object.entries(ours.imageBytes)) {
    const theirs = sameWork.imageBytes[format as keyof WorkDone['imageBytes']];
    if (theirs !== bytes)
      throw new WorkMissing(
        `Eleventy's ${format} variants take ${theirs} bytes where ours take ${bytes}: its encoder settings are not our build's (SHARP_OPTIONS in tests/bench/eleventy.ts, SETTINGS in src/images/encode.ts)`,
      );
  }

  process.stderr.write(`the bare pipeline on two threads: ${expected.pages.length} editions\n`);
  const manifest = await prepareFloor(siteRoot, path.join(scratch, 'floor'), articles);
  const floor = await measured('bare pipeline', () => floorBuild(manifest));
  const out = path.join(path.dirname(manifest), 'out');
  const floorWork = await checkWork(
    {
      system: 'the bare pipeline',
      dir: out,
      pageFile: (url) => path.join(out, `${url}.html`),
      pages: 'exact',
      highlighter: 'hljs',
    },
    expected,
  );
  process.stderr.write(`the bare pipeline without GFM: ${expected.pages.length} editions\n`);
  const floorBare = await measured('bare pipeline without GFM', () => floorBuild(manifest, { gfm: false }));
  const floorBareWork = await checkWork(
    {
      system: 'the bare pipeline without GFM',
      dir: out,
      pageFile: (url) => path.join(out, `${url}.html`),
      pages: 'exact',
      highlighter: 'hljs',
    },
    expected,
  );

  const sameVersions = await versionsIn(path.join(sameDir, 'node_modules'), [
    '@11ty/eleventy',
    '@11ty/eleventy-img',
    '@11ty/eleventy-plugin-syntaxhighlight',
    'markdown-it',
    'prismjs',
    'sharp',
  ]);
  return {
    ours,
    eleventy: figures(
      `Eleventy ${ELEVENTY.split('@').at(-1)}, one language, no highlighting, no images`,
      { '@11ty/eleventy': ELEVENTY.split('@').at(-1) as string },
      plainPages,
      plain,
    ),
    eleventySame: figures(
      `Eleventy ${sameVersions['@11ty/eleventy']}, same work: both languages, Prism, eleventy-img ${sameVersions['@11ty/eleventy-img']}`,
      sameVersions,
      sameWork.pages,
      same,
      sameWork,
    ),
    floor: figures(
      'bare pipeline: unified + remark-gfm + lowlight, two threads, no layout, no images',
      await versionsIn(path.join(PROJECT_ROOT, 'node_modules'), FLOOR_PACKAGES),
      floorWork.pages,
      floor,
      floorWork,
    ),
    floorWithoutGfm: figures(
      'bare pipeline without remark-gfm, two threads, no layout, no images',
      await versionsIn(
        path.join(PROJECT_ROOT, 'node_modules'),
        FLOOR_PACKAGES.filter((name) => name !== 'remark-gfm'),
      ),
      floorBareWork.pages,
      floorBare,
      floorBareWork,
    ),
  };
}
