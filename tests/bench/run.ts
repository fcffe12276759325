// `npm run bench`: builds a synthetic site of N bilingual articles in a temporary folder and
// measures the pipeline against Eleventy in one run. Prints a table; writes the figures as JSON
// under bench-results/ so that commits can be compared. Options: --articles N (default 4000),
// --runs R (repetitions of each measurement, default 3), --no-lighthouse, --growth (the cold,
// unchanged and check measures again at 2N articles; off by default, as it doubles the run),
// --no-newsletter (leaves out `site newsletter send` to --subscribers N, 10,000 by default),
// --only cold (the cold build and the systems it is compared with, nothing else).
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../support/content';
import { browserFigures } from './browser';
import { devFigures } from './dev';
import { type LighthousePage, type LighthouseResult, runLighthouse } from './lighthouse';
import { type Repeated, repeat, type Stats, stats, timed } from './measure';
import { newsletterFigures, newsletterRows } from './newsletter';
import { type SameWorkFigures, type SystemFigures, sameWorkFigures } from './sameWork';
import { apiFigures, indexFigures } from './search';
import { serveSite } from './serve';
import { removeSetAside, setAside } from './setAside';
import { articleFile, PHOTOS, syntheticMarkdown, syntheticOutline, withTitle, writeSyntheticSite } from './synthetic';

const { values } = parseArgs({
  options: {
    articles: { type: 'string', default: '4000' },
    runs: { type: 'string', default: '3' },
    lighthouse: { type: 'boolean', default: true },
    growth: { type: 'boolean', default: false },
    newsletter: { type: 'boolean', default: true },
    subscribers: { type: 'string', default: '10000' },
    only: { type: 'string' },
  },
  allowNegative: true,
});

/** One page of each kind of the real site, and an article in Portuguese too. */
const LIGHTHOUSE_PAGES: LighthousePage[] = [
  { kind: 'aboutme', path: '/aboutme' },
  { kind: 'professional', path: '/professional' },
  { kind: 'projects', path: '/projects' },
  { kind: 'atelier', path: '/atelier' },
  { kind: 'blog', path: '/blog' },
  { kind: 'category', path: '/blog/tech' },
  { kind: 'gallery', path: '/blog/gastronomy' },
  { kind: 'article', path: '/blog/tech/Site' },
  { kind: 'article (pt)', path: '/pt/blog/tech/Site' },
  { kind: 'notfound', path: '/no-such-page', status: 404 },
];
const count = Number(values.articles);
const runs = Number(values.runs);
if (
  !Number.isInteger(count) ||
  count < 1 ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  (values.only !== undefined && values.only !== 'cold')
) {
  console.error(
    'usage: npm run bench -- [--articles N] [--runs R] [--no-lighthouse] [--growth] [--no-newsletter] [--subscribers N] [--only cold]',
  );
  process.exit(2);
}

const SITE = [path.join(PROJECT_ROOT, 'bin', 'site')];

/** What each script a cold build runs as a process of its own does (see `Timed.cpuByScript`). */
const SCRIPT_ROLES: Record<string, string> = {
  site: 'the build (its thread, the markdown threads, the compressing threads)',
  encoder: 'the image encoder',
  drawWorker: 'the card-drawing process',
};

/**
 * The budgets of builds that reuse work, as shares of a plain Eleventy build of the same articles
 * (docs/design.md#budgets).
 */
const REBUILD_BUDGETS = { unchanged: 0.25, body: 0.4, title: 0.5, checkAfterBuild: 0.25 } as const;

/** The stages the build's timing line names, in its order. */
const STAGES = ['load', 'markdown', 'check', 'assets', 'render', 'search', 'publish', 'images', 'write'] as const;
/** The real article the browser measure edits, and its page. */
const BROWSER_ARTICLE = { file: 'content/blog/tech/Site.en.md', page: '/blog/tech/Site' };
const scratch = path.join(os.tmpdir(), `site-bench-${count}`);
const root = path.join(scratch, 'site');

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** A stage's time from the build's stage line ("  load 0.46 s · markdown 8.10 s · …"), in ms. */
function stageSeconds(output: string, stage: string): number {
  const match = new RegExp(`(?:^|· |\\s)${stage} (\\d+\\.\\d+) s`, 'm').exec(output);
  return match ? Number(match[1]) * 1000 : NaN;
}

/** One page of each kind of the owner's real site, built and served, through Lighthouse. */
async function lighthouseFigures(): Promise<LighthouseResult[]> {
  const out = path.join(scratch, 'real-dist');
  await timed(process.execPath, [...SITE, '--root', PROJECT_ROOT, 'build', '--quiet', '--out', out], {
    cwd: PROJECT_ROOT,
  });
  const server = await serveSite(PROJECT_ROOT, out);
  try {
    return await runLighthouse(server.origin, LIGHTHOUSE_PAGES);
  } finally {
    await server.stop();
  }
}

// As under CI (no live progress), with the stage line the table breaks the cold build down by.
const siteIn = (dir: string, ...args: string[]) =>
  timed(process.execPath, [...SITE, ...args, ...(args[0] === 'build' ? ['--quiet'] : [])], {
    cwd: dir,
    env: { CI: 'true', SITE_TIMINGS: '1' },
  });
const site = (...args: string[]) => siteIn(root, ...args);
// Set aside, not removed, until every measure is taken (see setAside.ts).
const cleanIn = async (dir: string) => {
  await setAside(path.join(dir, 'dist'));
  await setAside(path.join(dir, '.cache'));
};
/** A synthetic site written at `dir`, the one a bench before left there set aside first. */
const freshSite = async (dir: string, articles: number) => {
  await setAside(dir);
  return writeSyntheticSite(PROJECT_ROOT, dir, articles);
};

/** Whether this `site build` takes `--explain` (being added): its help lists the flag. */
function buildExplains(): boolean {
  const help = execFileSync(process.execPath, [...SITE, 'build', '--help'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  return /--explain\b/.test(help);
}

/** Check, cold build and rebuild with nothing changed: the measures the growth run repeats at 2N. */
async function sizeFigures(dir: string, label: string) {
  const check = await repeat(
    `${label}check`,
    runs,
    () => cleanIn(dir),
    () => siteIn(dir, 'check'),
  );
  const cold = await repeat(
    `${label}cold build`,
    runs,
    () => cleanIn(dir),
    () => siteIn(dir, 'build'),
  );
  const unchanged = await repeat(
    `${label}unchanged`,
    runs,
    async () => {},
    () => siteIn(dir, 'build'),
  );
  return { check, cold, unchanged, pages: pagesBuilt(cold.last.stdout) };
}

log(`generating ${count} synthetic articles in ${root}`);
const articles = await freshSite(root, count);
const editions = articles.reduce((n, a) => n + a.langs.length, 0);

// One unmeasured run: the command's TypeScript is bundled on first use and kept (bin/launch.mjs).
log('warm-up (the command bundled once, see bin/launch.mjs; not measured)');
await site('check');

if (values.only === 'cold') {
  log('cold build (no dist/, no cache), then the systems it is compared with');
  const cold = await repeat(
    'cold build',
    runs,
    () => cleanIn(root),
    () => site('build'),
  );
  const pages = pagesBuilt(cold.last.stdout);
  const same = await sameWorkFigures(root, scratch, articles, runs);
  const results = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    only: 'cold',
    machine: machine(),
    site: { articles: count, editions, pages },
    ...coldResults(cold, pages, same),
  };
  const { coldBuildStagesMs } = results;
  printTable([
    ['measure', 'median', 'spread (min–max)'],
    ...coldBuildRows(cold, pages, same),
    ...comparisonRows(cold, pages, same),
    ...stageRows(coldBuildStagesMs),
  ]);
  await writeResults(results, 'cold');
  await removeSetAside();
  process.exit(0);
}

log('site check (no dist/, no cache), cold build (no dist/, no cache), rebuild with nothing changed');
const { check, cold, unchanged, pages } = await sizeFigures(root, '');
// Here, while dist/ is what the cold build made (the rebuild with nothing changed writes the same):
// what it made is checked against the work the other systems are asked to do, then they are run.
const same = await sameWorkFigures(root, scratch, articles, runs);

// Memory against size: the same cold build on a site a quarter as large.
const quarter = Math.max(1, Math.floor(count / 4));
log(`cold build of ${quarter} articles, for peak memory against size`);
const smallRoot = path.join(scratch, 'quarter');
await freshSite(smallRoot, quarter);
const small = await timed(process.execPath, [...SITE, 'build', '--quiet'], { cwd: smallRoot, env: { CI: 'true' } });
const smallPages = pagesBuilt(small.stdout);

log("rebuild after one article's body changed");
// An article in the middle of the blog, with an English edition (one in ten is Portuguese only).
const editedIndex = articles.findIndex((a, i) => i >= Math.floor(count / 2) && a.langs.includes('en'));
const edited = articles[editedIndex]!;
const editedFile = articleFile(root, edited, 'en');
const oneChanged = await repeat(
  'one changed',
  runs,
  (run) => writeFile(editedFile, syntheticMarkdown(editedIndex, 'en', run + 1)),
  () => site('build'),
);

// `--explain` is being added to site build: measured where the CLI offers it, said so where not.
let explain:
  | { ms: number; ratioToCold: number; madeAgain: string; imagesEncoded: number; output: string[] }
  | { skipped: string };
if (buildExplains()) {
  log("site build --explain after one article's body changed");
  await writeFile(editedFile, syntheticMarkdown(editedIndex, 'en', runs + 1));
  const run = await timed(process.execPath, [...SITE, 'build', '--explain'], { cwd: root, env: { CI: 'true' } });
  const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
  // An image variant made again would be listed under assets/media/: none should be.
  const imagesEncoded = lines.filter((line) => line.trim().startsWith('assets/media/')).length;
  explain = {
    ms: run.milliseconds,
    ratioToCold: run.milliseconds / cold.ms.median,
    madeAgain: lines.find((l) => /made again/i.test(l))?.trim() ?? '',
    imagesEncoded,
    output: lines.slice(0, 60),
  };
} else {
  explain = { skipped: 'site build does not accept --explain (not in `site build --help`)' };
  log(`skipped: ${explain.skipped}`);
}

log("rebuild after one article's title changed (front matter only)");
const editedTitle = syntheticOutline(editedIndex, 'en').title;
const bodyAsSaved = await readFile(editedFile, 'utf8');
const titleChanged = await repeat(
  'title changed',
  runs,
  (run) => writeFile(editedFile, withTitle(bodyAsSaved, `${editedTitle} revised ${run + 1}`)),
  () => site('build'),
);

log('site check right after a build');
const checkAfterBuild = await repeat(
  'check after build',
  runs,
  async () => {},
  () => site('check'),
);

log('site dev: from saving one article (its body, then its title) to the reload event');
const devRun = await devFigures(root, editedFile, `/blog/${edited.category}/${edited.slug}`);

log(`site dev in Chromium: from saving ${BROWSER_ARTICLE.file} of the real site to the edit in the open tab`);
const realCopy = path.join(scratch, 'real-dev');
await freshSite(realCopy, 0);
const browserRun = await browserFigures(realCopy, BROWSER_ARTICLE.page, BROWSER_ARTICLE.file);

// Growth: the same measures on a second synthetic site of twice the articles, removed afterwards.
let growth:
  | {
      articles: number;
      pages: number;
      check: Stats;
      cold: Stats;
      unchanged: Stats;
      ratios: { check: number; cold: number; unchanged: number; pages: number };
    }
  | { skipped: string };
if (values.growth) {
  log(`growth: ${count * 2} articles, the same measures`);
  const doubleRoot = path.join(scratch, 'double');
  await freshSite(doubleRoot, count * 2);
  const twice = await sizeFigures(doubleRoot, '2N ');
  await setAside(doubleRoot);
  growth = {
    articles: count * 2,
    pages: twice.pages,
    check: twice.check.ms,
    cold: twice.cold.ms,
    unchanged: twice.unchanged.ms,
    ratios: {
      check: twice.check.ms.median / check.ms.median,
      cold: twice.cold.ms.median / cold.ms.median,
      unchanged: twice.unchanged.ms.median / unchanged.ms.median,
      pages: twice.pages / pages,
    },
  };
} else growth = { skipped: 'run with --growth' };

// The API first: loading both indexes here for the in-process figures leaves this process a large
// heap to collect, whose pauses would be counted as the server's latency.
log('search: the API under 50 concurrent connections');
const api = await apiFigures(root);
log('search: index size and query latency');
const distDir = path.join(root, 'dist');
const indexes = await indexFigures(distDir);

if (values.newsletter) log(`site newsletter send to ${values.subscribers} subscribers on a loopback SMTP server`);
const newsletter = values.newsletter ? await newsletterFigures(Number(values.subscribers)) : undefined;

if (values.lighthouse) log('Lighthouse (mobile) over one page of each kind of the real site');
const lighthouse = values.lighthouse ? await lighthouseFigures() : [];

// A warm build encodes no image: its images stage only finds each variant carried over. A rebuild
// that replays the last build (nothing it reads changed) runs no stage, and prints no stage line.
const unchangedReplayed = unchanged.all.every((t) => Number.isNaN(stageSeconds(t.stdout, 'images')));
const unchangedImages = stats(unchanged.all.map((t) => stageSeconds(t.stdout, 'images')));
const photos = Math.min(PHOTOS, Math.ceil(count / 4));

const coldFigures = coldResults(cold, pages, same);
/** A rebuild's median as a share of plain Eleventy's cold build, in the same run (the budgets' measure). */
const toEleventy = (rebuild: Repeated) => rebuild.ms.median / same.eleventy.ms.median;
const results = {
  date: new Date().toISOString(),
  commit: gitCommit(),
  machine: machine(),
  site: { articles: count, editions, pages },
  newsletter: newsletter ?? { skipped: '--no-newsletter' },
  check: check.ms,
  // The budget's measure is plain Eleventy's build; the cold build and the cold check are kept beside it.
  checkAfterBuild: {
    ms: checkAfterBuild.ms,
    ratioToCold: checkAfterBuild.ms.median / cold.ms.median,
    ratioToColdCheck: checkAfterBuild.ms.median / check.ms.median,
    ratioToEleventy: toEleventy(checkAfterBuild),
  },
  ...coldFigures,
  quarterSite: { articles: quarter, pages: smallPages, ms: small.milliseconds, peakRssMb: small.peakRssMb },
  unchangedRebuild: {
    ms: unchanged.ms,
    ratioToCold: unchanged.ms.median / cold.ms.median,
    ratioToEleventy: toEleventy(unchanged),
  },
  oneArticleRebuild: {
    ms: oneChanged.ms,
    ratioToCold: oneChanged.ms.median / cold.ms.median,
    ratioToEleventy: toEleventy(oneChanged),
  },
  titleEditRebuild: {
    ms: titleChanged.ms,
    ratioToCold: titleChanged.ms.median / cold.ms.median,
    ratioToEleventy: toEleventy(titleChanged),
  },
  explainRebuild: explain,
  devSaveToReload: devRun,
  browserSaveToVisible: browserRun,
  growth,
  unchangedImagesMs: unchangedReplayed ? null : unchangedImages,
  photos,
  search: { indexes, api },
  lighthouse,
};

const table: Row[] = [
  ['measure', 'median', 'spread (min–max)'],
  [`site check (${editions} editions, no cache)`, seconds(check.ms.median), range(check.ms)],
  [
    'site check right after a build',
    seconds(checkAfterBuild.ms.median),
    `${range(checkAfterBuild.ms)}  (${pct(results.checkAfterBuild.ratioToCold)} of cold build, ${pct(results.checkAfterBuild.ratioToColdCheck)} of cold check; ${againstEleventy(results.checkAfterBuild.ratioToEleventy, REBUILD_BUDGETS.checkAfterBuild)})`,
  ],
  ...coldBuildRows(cold, pages, same),
  [
    `  at ${quarter} articles (${smallPages} pages)`,
    `${small.peakRssMb.toFixed(0)} MB`,
    `${(pages / smallPages).toFixed(1)}× the pages take ${(cold.rssMb.median / small.peakRssMb).toFixed(1)}× the memory, ${(cold.ms.median / small.milliseconds).toFixed(1)}× the time`,
  ],
  [
    'rebuild, nothing changed',
    seconds(unchanged.ms.median),
    `${range(unchanged.ms)}  (${pct(results.unchangedRebuild.ratioToCold)} of cold; ${againstEleventy(results.unchangedRebuild.ratioToEleventy, REBUILD_BUDGETS.unchanged)})`,
  ],
  [
    "rebuild, one article's body changed",
    seconds(oneChanged.ms.median),
    `${range(oneChanged.ms)}  (${pct(results.oneArticleRebuild.ratioToCold)} of cold; ${againstEleventy(results.oneArticleRebuild.ratioToEleventy, REBUILD_BUDGETS.body)})`,
  ],
  [
    "rebuild, one article's title changed",
    seconds(titleChanged.ms.median),
    `${range(titleChanged.ms)}  (${pct(results.titleEditRebuild.ratioToCold)} of cold; ${againstEleventy(results.titleEditRebuild.ratioToEleventy, REBUILD_BUDGETS.title)})`,
  ],
  'skipped' in explain
    ? ['site build --explain, one body changed', 'skipped', explain.skipped]
    : [
        'site build --explain, one body changed',
        seconds(explain.ms),
        `1 run  (${pct(explain.ratioToCold)} of cold); ${explain.madeAgain}; image variants among them: ${explain.imagesEncoded}`,
      ],
  [
    `site dev: body save to reload (${devRun.edits} edits)`,
    seconds(devRun.saveToReloadMs.median),
    range(devRun.saveToReloadMs),
  ],
  [
    `site dev: title save to reload (${devRun.edits} edits)`,
    seconds(devRun.titleSaveToReloadMs.median),
    range(devRun.titleSaveToReloadMs),
  ],
  [
    `site dev: body save to the page served at the reload`,
    seconds(devRun.saveToPageMs.median),
    range(devRun.saveToPageMs),
  ],
  [
    `site dev in Chromium, real site: save to visible (${browserRun.edits} edits)`,
    seconds(browserRun.saveToVisibleMs.median),
    `${range(browserRun.saveToVisibleMs)}  (${browserRun.page})`,
  ],
  ...('skipped' in growth
    ? [['growth 2N÷N', 'skipped', growth.skipped] as [string, string, string]]
    : ([
        [
          `growth: ${growth.articles} articles (${growth.pages} pages)`,
          '2N÷N',
          `pages ×${growth.ratios.pages.toFixed(2)}`,
        ],
        [
          '  site check',
          `×${growth.ratios.check.toFixed(2)}`,
          `${seconds(growth.check.median)} (${range(growth.check)})`,
        ],
        ['  cold build', `×${growth.ratios.cold.toFixed(2)}`, `${seconds(growth.cold.median)} (${range(growth.cold)})`],
        [
          '  rebuild, nothing changed',
          `×${growth.ratios.unchanged.toFixed(2)}`,
          `${seconds(growth.unchanged.median)} (${range(growth.unchanged)})`,
        ],
      ] as [string, string, string][])),
  ...comparisonRows(cold, pages, same),
  ...indexes.map((i): [string, string, string] => [
    `search index ${i.lang} (${i.documents} docs)`,
    `${kb(i.bytes)} raw`,
    `${kb(i.gzipBytes)} gzip, ${kb(i.brotliBytes)} brotli; query median ${i.queryMedianMs.toFixed(3)} ms, p99 ${i.queryP99Ms.toFixed(3)} ms`,
  ]),
  [
    `search API, ${api.connections} connections, ${api.offeredRate} req/s`,
    `p99 ${api.p99Ms.toFixed(1)} ms`,
    `median ${api.medianMs.toFixed(1)} ms; capacity ${Math.round(api.capacityPerSecond)} req/s (p99 ${api.saturatedP99Ms} ms); ${api.errors} errors, ${api.non2xx} non-2xx`,
  ],
  ...(newsletter ? newsletterRows(newsletter) : []),
  ...stageRows(coldFigures.coldBuildStagesMs),
  unchangedReplayed
    ? [
        `  rebuild, nothing changed: images (${photos} photos)`,
        'none',
        'each run replayed the last build: no stage ran',
      ]
    : [
        `  rebuild, nothing changed: images (${photos} photos)`,
        seconds(unchangedImages.median),
        range(unchangedImages),
      ],
  ...lighthouse.map((l): [string, string, string] => [
    `Lighthouse ${l.kind} (${new URL(l.url).pathname})`,
    `perf ${l.performance}`,
    `a11y ${l.accessibility}, best practices ${l.bestPractices}, SEO ${l.seo}; LCP ${Math.round(l.lcpMs)} ms, CLS ${l.cls.toFixed(3)}, TBT ${Math.round(l.tbtMs)} ms`,
  ]),
];
printTable(table);
await writeResults(results);
await removeSetAside();

type Row = [string, string, string];

/** A share of plain Eleventy's build, against its budget. */
function againstEleventy(ratio: number, budget: number): string {
  return `${ratio.toFixed(2)} of plain Eleventy, budget ${budget} ${ratio <= budget ? 'met' : 'missed'}`;
}

function printTable(table: readonly Row[]): void {
  const widths = [0, 1, 2].map((c) => Math.max(...table.map((row) => (row[c] ?? '').length)));
  console.log(table.map((row) => row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  ')).join('\n'));
}

/**
 * Writes the figures to bench-results/<commit>.json and latest.json; a partial run (`--only cold`)
 * to <commit>-cold.json and latest-cold.json, leaving a whole run's figures as they were.
 */
async function writeResults(results: { commit: string }, part?: 'cold'): Promise<void> {
  const outDir = path.join(PROJECT_ROOT, 'bench-results');
  await mkdir(outDir, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const suffix = part ? `-${part}` : '';
  await writeFile(path.join(outDir, `${results.commit}${suffix}.json`), json);
  await writeFile(path.join(outDir, `latest${suffix}.json`), json);
  console.log(`\nfigures written to bench-results/${results.commit}${suffix}.json`);
}

function machine() {
  return { cpus: os.availableParallelism(), node: process.version, memoryGb: Math.round(os.totalmem() / 2 ** 30) };
}

function pagesBuilt(output: string): number {
  return Number(/built (\d+) pages/.exec(output)?.[1] ?? NaN);
}

/** The cold build's figures and the systems it is compared with, as the JSON results hold them. */
function coldResults(cold: Repeated, pages: number, same: SameWorkFigures) {
  const perPage = cold.ms.median / pages;
  const { eleventy, eleventySame, floor } = same;
  return {
    coldBuild: {
      ms: cold.ms,
      perPageMs: perPage,
      cpuMs: cold.cpuMs,
      cpuByScript: cold.cpuByScript,
      peakRssMb: cold.rssMb,
      work: same.ours,
    },
    coldBuildStagesMs: Object.fromEntries(
      STAGES.map((stage) => [stage, stats(cold.all.map((t) => stageSeconds(t.stdout, stage)))]),
    ),
    // The plain run, as before (the reference of the rebuild budgets).
    eleventy: {
      version: eleventy.versions['@11ty/eleventy'],
      pages: eleventy.pages,
      ms: eleventy.ms,
      perPageMs: eleventy.perPageMs,
      cpuMs: eleventy.cpuMs,
      peakRssMb: eleventy.peakRssMb,
    },
    ratioPerPageToEleventy: perPage / eleventy.perPageMs,
    eleventySameWork: eleventySame,
    ratioPerPageToEleventySameWork: perPage / eleventySame.perPageMs,
    floor,
    ratioPerPageToFloor: perPage / floor.perPageMs,
    floorWithoutGfm: same.floorWithoutGfm,
    ratioPerPageToFloorWithoutGfm: perPage / same.floorWithoutGfm.perPageMs,
  };
}

/** What a system was found to have made, in a few words. */
function workText(work: SystemFigures['work']): string {
  if (!work) return '';
  const images = Object.entries(work.images).map(([format, n]) => `${n} ${format}`);
  return `checked: ${work.pages} pages, highlighted code in ${work.highlightedPages}${images.length > 0 ? `, ${work.pagesWithPicture} photo <picture>s, variants ${images.join(' ')}` : ''}`;
}

function coldBuildRows(cold: Repeated, pages: number, same: SameWorkFigures): Row[] {
  return [
    [`cold build (${pages} pages)`, seconds(cold.ms.median), range(cold.ms)],
    ['  per page', `${(cold.ms.median / pages).toFixed(2)} ms`, workText(same.ours)],
    ['  CPU', seconds(cold.cpuMs.median), range(cold.cpuMs)],
    ...Object.entries(cold.cpuByScript)
      .sort(([, a], [, b]) => b.median - a.median)
      .map(([script, cpu]): Row => [`    of it, ${SCRIPT_ROLES[script] ?? script}`, seconds(cpu.median), range(cpu)]),
    [
      '  peak memory',
      `${cold.rssMb.median.toFixed(0)} MB`,
      `${cold.rssMb.min.toFixed(0)}–${cold.rssMb.max.toFixed(0)} MB`,
    ],
  ];
}

/** Each compared system's cold build, and ours per page against it. */
function comparisonRows(cold: Repeated, pages: number, same: SameWorkFigures): Row[] {
  const perPage = cold.ms.median / pages;
  const system = (figures: SystemFigures, name: string): Row[] => [
    [
      `${figures.label} (${figures.pages} pages)`,
      seconds(figures.ms.median),
      `${range(figures.ms)}; CPU ${seconds(figures.cpuMs.median)}, peak ${figures.peakRssMb.median.toFixed(0)} MB`,
    ],
    [
      '  per page',
      `${figures.perPageMs.toFixed(2)} ms`,
      `ours ÷ ${name} per page: ${(perPage / figures.perPageMs).toFixed(2)}`,
    ],
    ...(figures.work ? [['', '', workText(figures.work)] as Row] : []),
  ];
  return [
    ...system(same.eleventySame, 'Eleventy same work'),
    ...system(same.floor, 'floor'),
    ...system(same.floorWithoutGfm, 'floor without GFM'),
    ...system(same.eleventy, 'Eleventy'),
  ];
}

function stageRows(stages: Record<string, Stats>): Row[] {
  return STAGES.map(
    (stage): Row => [`  cold build: ${stage}`, seconds(stages[stage]?.median ?? 0), range(stages[stage] ?? stats([0]))],
  );
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

function range(s: Stats): string {
  return `${seconds(s.min)}–${seconds(s.max)}`;
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KB`;
}
