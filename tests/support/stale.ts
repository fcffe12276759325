import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { PROJECT_ROOT } from './content';
import { type RunningDev, startDev } from './dev';
import { differences, filesUnder } from './tool';

const run = promisify(execFile);

/**
 * The stale-output test of the whole engine: a seeded sequence of the edits owners and
 * contributors make is applied to two copies of the tool with the real site. After each step, the
 * output of `site build` reusing its cache (in one copy) and that of a running `site dev` (in the
 * other) must equal, byte for byte, a build from nothing of the same files (`--no-cache`; with
 * `--drafts` for `site dev`), and their outcome and diagnostic codes must agree. The same seed
 * gives the same steps.
 */

/** A small seeded generator (mulberry32): the same seed, the same sequence of edits. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of the tool (code, templates, the real content) that is its own site root. */
async function copyOfToolAndSite(into: string): Promise<string> {
  for (const part of [
    'bin',
    'src',
    'templates',
    'server',
    'content',
    'tsconfig.json',
    'package.json',
    'package-lock.json',
  ]) {
    await cp(path.join(PROJECT_ROOT, part), path.join(into, part), { recursive: true });
  }
  await symlink(path.join(PROJECT_ROOT, 'node_modules'), path.join(into, 'node_modules'));
  return into;
}

/** What one step did to the files (the same in both copies). */
export interface Edit {
  name: string;
  /** Makes the edit in a copy; false when it left every file as it was (no build follows). */
  apply: (root: string) => Promise<unknown>;
  /** Nothing was edited since a build that could keep its record: `site build` must replay it (see src/build/replay.ts). */
  replays?: true;
}

/** The state the sequence keeps between steps: what was deleted and can come back. */
interface Memory {
  deleted: { file: string; text: string }[];
  /** Editions made drafts, and whether MAX_DEPTH is lowered: each is undone sooner or later. */
  drafted: string[];
  lowered: boolean;
  added: number;
  /** Whether the last build ran with every content file settled, and succeeded: it kept its record. */
  recorded?: boolean;
}

const WORDS = [
  'harbour',
  'letters',
  'quiet',
  'river',
  'lantern',
  'granite',
  'orchard',
  'compass',
  'saffron',
  'meridian',
];

async function articleFiles(root: string): Promise<string[]> {
  const blog = path.join(root, 'content', 'blog');
  const entries = await readdir(blog, { recursive: true });
  return entries
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('content', 'blog', name))
    .sort();
}

async function editText(root: string, file: string, change: (text: string) => string): Promise<boolean> {
  const absolute = path.join(root, file);
  const before = await readFile(absolute, 'utf8');
  const after = change(before);
  if (after === before) return false;
  await writeFile(absolute, after);
  return true;
}

/** The front matter's line `key: ...` replaced, or added before its end when missing (`undefined` removes it). */
function setFrontMatter(text: string, key: string, value: string | undefined): string {
  const end = text.indexOf('\n---', 3);
  const head = text.slice(0, end);
  const rest = text.slice(end);
  const line = new RegExp(`^${key}:.*\\n?`, 'm');
  const without = head.replace(line, '');
  return value === undefined
    ? without.replace(/\n?$/, '') + rest
    : `${without.replace(/\n?$/, '')}\n${key}: ${value}${rest}`;
}

/** The kinds of edit, drawn with these weights (a body edit is the commonest). */
const EDIT_KINDS = [
  'body',
  'body',
  'heading',
  'title',
  'date',
  'draft',
  'delete',
  'restore',
  'add',
  'string',
  'category',
  'photo',
  'template',
  'constant',
  'sync',
  'replace',
  'swap',
  'none',
] as const;

export type EditKind = (typeof EDIT_KINDS)[number] | 'undraft';

/**
 * The next edit, drawn from the kinds owners and contributors make. Every draw is made before any
 * file is read, so that the edit is the same on both copies.
 */
async function nextEdit(
  rnd: () => number,
  root: string,
  memory: Memory,
  step: number,
  forced?: EditKind,
): Promise<Edit> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const files = await articleFiles(root);
  const file = pick(files);
  const word = pick(WORDS);
  let kind: EditKind = pick(EDIT_KINDS);
  // What was deleted, drafted or lowered is undone sooner or later: a site with errors checks
  // outcomes only, not files.
  const undo = rnd();
  if (memory.deleted.length > 0 && undo < 0.3) kind = 'restore';
  else if (memory.drafted.length > 0 && undo < 0.5) kind = 'undraft';
  else if (memory.lowered && undo < 0.7) kind = 'constant';
  if (forced) kind = forced;
  const draw = rnd();
  switch (kind) {
    case 'body':
      return {
        name: `body of ${file}`,
        apply: (r) =>
          editText(r, file, (t) =>
            t.replace(/\n\n([^\n#>|`:-][^\n]*)\n/, `\n\nA ${word} sentence, step ${step}. $1\n`),
          ),
      };
    case 'heading':
      return {
        name: `a heading of ${file} two levels down`,
        // A section made a level 4 heading: a level skipped (MD003), its id and anchors unchanged.
        apply: (r) => editText(r, file, (t) => t.replace(/\n## ([^\n]*)\n/, '\n#### $1\n')),
      };
    case 'title':
      return {
        name: `title of ${file}`,
        // A word added at the end (inside the quotes of a quoted title), or the one added before replaced.
        apply: (r) =>
          editText(r, file, (t) =>
            t.replace(
              /^title: (["']?)(.*?)\1$/m,
              (_, quote: string, title: string) =>
                `title: ${quote}${title.replace(/ · [a-z]+$/, '')} · ${word}${quote}`,
            ),
          ),
      };
    case 'date': {
      const date = `20${19 + Math.floor(draw * 6)}-0${1 + Math.floor(draw * 9)}-1${Math.floor(draw * 9)}`;
      return {
        name: `date of ${file} to ${date}`,
        apply: (r) => editText(r, file, (t) => setFrontMatter(t, 'date', date)),
      };
    }
    case 'draft':
      return {
        name: `draft flag of ${file} set`,
        apply: async (r) => {
          if (r === root && !memory.drafted.includes(file)) memory.drafted.push(file);
          return editText(r, file, (t) => setFrontMatter(t, 'draft', 'true'));
        },
      };
    case 'undraft': {
      const drafted = memory.drafted[Math.floor(draw * memory.drafted.length)] as string;
      return {
        name: `draft flag of ${drafted} cleared`,
        apply: async (r) => {
          if (r === root) memory.drafted.splice(memory.drafted.indexOf(drafted), 1);
          // Deleted meanwhile: nothing to clear.
          return editText(r, drafted, (t) => setFrontMatter(t, 'draft', undefined)).catch(() => false);
        },
      };
    }
    case 'delete':
      return {
        name: `${file} deleted`,
        apply: async (r) => {
          const text = await readFile(path.join(r, file), 'utf8');
          if (r === root) memory.deleted.push({ file, text });
          await unlink(path.join(r, file));
        },
      };
    case 'restore': {
      const gone = memory.deleted[Math.floor(draw * memory.deleted.length)];
      if (!gone)
        return {
          name: `body of ${file}`,
          apply: (r) => editText(r, file, (t) => `${t}\nA closing ${word} line, step ${step}.\n`),
        };
      return {
        name: `${gone.file} restored`,
        apply: async (r) => {
          if (r === root) memory.deleted.splice(memory.deleted.indexOf(gone), 1);
          await writeFile(path.join(r, gone.file), gone.text);
        },
      };
    }
    case 'add': {
      const slug = `Added${++memory.added}x${step}`;
      const category = pick(['tech', 'books', 'cinema', 'music']);
      const both = draw < 0.5;
      const date = `2024-0${1 + Math.floor(draw * 9)}-0${1 + Math.floor(draw * 8)}`;
      const text = (lang: 'en' | 'pt') =>
        `---\ntitle: ${lang === 'en' ? 'A note on' : 'Uma nota sobre'} ${word} ${step}\ndescription: ${lang === 'en' ? 'A short note.' : 'Uma nota breve.'}\ndate: ${date}\n---\n\n${lang === 'en' ? 'The first paragraph' : 'O primeiro parágrafo'}, ${word}.\n\n## ${lang === 'en' ? 'More' : 'Mais'}\n\n- one\n- two\n\n\`\`\`ts\nconst ${word} = ${step};\n\`\`\`\n`;
      return {
        name: `article ${category}/${slug} added${both ? ' in both languages' : ''}`,
        apply: async (r) => {
          // A category may have no article yet (music): its folder is then made, as the owner would.
          await mkdir(path.join(r, 'content/blog', category), { recursive: true });
          await writeFile(path.join(r, 'content/blog', category, `${slug}.en.md`), text('en'));
          if (both) await writeFile(path.join(r, 'content/blog', category, `${slug}.pt.md`), text('pt'));
        },
      };
    }
    case 'string':
      return {
        name: 'a UI string',
        apply: (r) =>
          editText(r, 'content/strings.json', (t) => {
            const strings = JSON.parse(t) as Record<string, Record<string, string>>;
            const keys = Object.keys(strings).filter(
              (key) => typeof strings[key]?.en === 'string' && !/[{}]/.test(`${strings[key]?.en}${strings[key]?.pt}`),
            );
            const key = keys[Math.floor(draw * keys.length)] as string;
            const entry = strings[key] as Record<string, string>;
            const lang = draw < 0.5 ? 'en' : 'pt';
            entry[lang] = /·$/.test(entry[lang] ?? '') ? (entry[lang] ?? '').replace(/ ·$/, '') : `${entry[lang]} ·`;
            return `${JSON.stringify(strings, null, 2)}\n`;
          }),
      };
    case 'category': {
      const category = pick(['tech', 'books', 'cinema', 'finances', 'music', 'opinions']);
      return {
        name: `category text of ${category}`,
        apply: (r) =>
          editText(r, `content/categories/${category}.json`, (t) =>
            t.replace(
              /("description": \{\s*"en": ")([^"]*)"/,
              (_, head: string, text: string) => `${head}${text} (${word})"`,
            ),
          ),
      };
    }
    case 'photo':
      return {
        name: 'a photo replaced (content/media/banner/poster.jpg)',
        apply: async (r) => {
          const photo = path.join(r, 'content/media/banner/poster.jpg');
          const tinted = await sharp(await readFile(photo))
            .tint({ r: Math.floor(draw * 255), g: 120, b: 200 })
            .jpeg({ quality: 80 })
            .toBuffer();
          // Replaced by rename, as an image editor saves.
          await writeFile(`${photo}.new`, tinted);
          await rename(`${photo}.new`, photo);
        },
      };
    case 'template':
      return {
        name: 'a template edited (templates/pages/Article.tsx)',
        apply: (r) =>
          editText(r, 'templates/pages/Article.tsx', (t) =>
            t.replace(
              /<article className="section article"( data-step="\d+")?>/,
              `<article className="section article" data-step="${step}">`,
            ),
          ),
      };
    case 'constant':
      return {
        name: 'a pipeline constant edited (MAX_DEPTH in src/load/limits.ts)',
        apply: async (r) => {
          if (r === root) memory.lowered = !memory.lowered;
          return editText(r, 'src/load/limits.ts', (t) =>
            t.includes('MAX_DEPTH = 64;')
              ? t.replace('MAX_DEPTH = 64;', 'MAX_DEPTH = 32;')
              : t.replace('MAX_DEPTH = 32;', 'MAX_DEPTH = 64;'),
          );
        },
      };
    case 'sync':
      return {
        name: 'translations synced (site translations sync --all)',
        apply: async (r) => {
          const lock = path.join(r, 'content', 'translations.json');
          const before = await readFile(lock, 'utf8').catch(() => '');
          await run(process.execPath, [
            path.join(r, 'bin', 'site'),
            '--root',
            r,
            'translations',
            'sync',
            '--all',
          ]).catch(() => undefined);
          return (await readFile(lock, 'utf8').catch(() => '')) !== before;
        },
      };
    case 'none':
      return {
        name: 'nothing edited: built after a pause, then again (the last build replayed)',
        replays: true,
        // A build of files older than the stat signature's two seconds keeps its record (a file
        // just written is read whatever its signature): the step's build then replays it.
        apply: async (r) => {
          if (r !== root) return false;
          await new Promise((resolve) => setTimeout(resolve, 2100));
          memory.recorded = (await siteBuild(r, ['--quiet'])).ok;
          return false;
        },
      };
    case 'replace':
    case 'swap':
      return {
        name:
          kind === 'replace'
            ? 'content/ deleted and written again (a branch switch)'
            : 'content/ replaced by a renamed copy',
        apply: async (r) => {
          const content = path.join(r, 'content');
          const copy = path.join(r, 'content.switch');
          await cp(content, copy, { recursive: true });
          if (kind === 'replace') {
            await rm(content, { recursive: true, force: true });
            await cp(copy, content, { recursive: true });
            await rm(copy, { recursive: true, force: true });
          } else {
            await rename(content, `${content}.old`);
            await rename(copy, content);
            await rm(`${content}.old`, { recursive: true, force: true });
          }
        },
      };
  }
}

/** What a build said: whether it succeeded, and its diagnostics' codes by severity (sorted, unique). */
export interface Outcome {
  ok: boolean;
  codes: string[];
  /** What a failed build printed last. */
  said?: string;
  /** Whether it made nothing and said again what the last build said (told by `--explain`). */
  replayed?: boolean;
}

/** What `site build --explain` says of a build that replayed the last one. */
const REPLAYED = 'nothing the build reads changed since the last build';

function codesIn(text: string): string[] {
  return [...new Set([...text.matchAll(/ (error|warning) ([A-Z]+\d{3}):/g)].map((m) => `${m[1]} ${m[2]}`))].sort();
}

async function siteBuild(root: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(root, 'bin', 'site'), '--root', root, 'build', ...args],
      {
        env: { ...process.env, NO_COLOR: '1', CI: '', ...env },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { ok: true, codes: codesIn(stdout + stderr), replayed: stdout.includes(REPLAYED) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (failed.code !== 1) throw error;
    const said = `${failed.stdout}${failed.stderr}`;
    return { ok: false, codes: codesIn(said), said: said.slice(-2000) };
  }
}

/**
 * `site dev`'s outcome once it has built the files as they are now: it has heard of a change made
 * since `editedAt` (an edit that changed a file is always heard, however late the watcher reports
 * it on a loaded machine), and it says it is idle (no build running or due, no folder to read
 * again; `/__dev/status`) twice in a row, with no build between.
 */
async function devSettled(
  dev: RunningDev,
  since: number,
  before: Outcome,
  where: string,
  editedAt: number,
  changed: boolean,
): Promise<Outcome> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const status = async () =>
    (await (await fetch(`${dev.origin}/__dev/status`)).json()) as {
      busy: boolean;
      generation: number;
      lastChange: number;
    };
  const started = Date.now();
  for (;;) {
    const first = await status();
    // An edit that left every file as it was is heard of by nobody: a second is given to be sure.
    const heard = first.lastChange >= editedAt || (!changed && Date.now() - started > 1_000);
    if (heard && !first.busy) {
      await pause(400);
      const second = await status();
      if (!second.busy && second.generation === first.generation && second.lastChange === first.lastChange) break;
    } else await pause(100);
    if (Date.now() - started > 120_000)
      throw new StaleOutputFound(
        `site dev did not settle within 120 s at ${where} (heard of a change: ${heard}):\n${dev.output().slice(since)}`,
      );
  }
  // The last build's diagnostics and outcome line: everything after the outcome before it.
  const lines = dev.output().slice(since).split('\n');
  const ends = lines.flatMap((line, i) => (/^(✓ rebuilt|✗ )/.test(line) ? [i] : []));
  const last = ends.at(-1);
  // An edit that left every file as it was: no build, and the last outcome stands.
  if (last === undefined) return before;
  const block = lines.slice((ends.at(-2) ?? -1) + 1, last + 1).join('\n');
  return { ok: /^✓ rebuilt/.test(lines[last] ?? ''), codes: codesIn(block) };
}

/** The files two outputs differ in; compressed copies are left out where `site dev` writes none. */
async function outputDifferences(made: string, cold: string, compressed: boolean): Promise<string[]> {
  const keep = (files: Map<string, Buffer>) =>
    compressed ? files : new Map([...files].filter(([name]) => !/\.(br|gz)$/.test(name)));
  const [a, b] = await Promise.all([filesUnder(made), filesUnder(cold)]);
  return differences(keep(a), keep(b));
}

export interface StaleOptions {
  seed: number;
  steps: number;
  /** The kinds of the first steps (a regression case), each drawn as usual otherwise. */
  first?: readonly EditKind[];
  log?: (line: string) => void;
}

export interface StaleReport {
  steps: number;
  milliseconds: number;
}

/** A step where an output disagreed with a build from nothing. */
export class StaleOutputFound extends Error {}

/**
 * Runs the sequence. Throws `StaleOutputFound` at the first step where either mode disagrees
 * with a build from nothing, naming the seed and the step (the seed replays the sequence).
 */
export async function staleSequence(options: StaleOptions): Promise<StaleReport> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const work = await mkdtemp(path.join(os.tmpdir(), 'site-stale-'));
  const [buildRoot, devRoot] = await Promise.all([
    copyOfToolAndSite(path.join(work, 'build')),
    copyOfToolAndSite(path.join(work, 'dev')),
  ]);
  // Quotes nested 40 deep: built under MAX_DEPTH 64, an error under 32 (the 'constant' edit).
  for (const root of [buildRoot, devRoot])
    await writeFile(
      path.join(root, 'content/blog/books/DeepQuotes.en.md'),
      `---\ntitle: Quotes within quotes\ndescription: Nested.\ndate: 2021-03-04\n---\n\n${'> '.repeat(40)}deep\n`,
    );
  const cold = path.join(work, 'cold');
  const coldDrafts = path.join(work, 'cold-drafts');
  let dev: RunningDev | undefined;
  let ended = true;
  try {
    const initial = await siteBuild(buildRoot, ['--quiet']);
    if (!initial.ok) throw new Error(`the site copy does not build: ${initial.codes.join(', ')}`);
    // Every shortcut a build takes is checked against the data it stands for (src/build/shortcuts.ts).
    const checking = process.env.SITE_CHECK_SHORTCUTS;
    process.env.SITE_CHECK_SHORTCUTS = '1';
    dev = await startDev(devRoot, devRoot).finally(() => {
      if (checking === undefined) delete process.env.SITE_CHECK_SHORTCUTS;
      else process.env.SITE_CHECK_SHORTCUTS = checking;
    });
    const rnd = random(options.seed);
    const memory: Memory = { deleted: [], drafted: [], lowered: false, added: 0 };
    let lastDev: Outcome = { ok: true, codes: [] };
    for (let step = 1; step <= options.steps; step++) {
      const edit = await nextEdit(rnd, buildRoot, memory, step, options.first?.[step - 1]);
      const where = `seed ${options.seed}, step ${step} (${edit.name})`;
      const since = dev.output().length;
      await edit.apply(buildRoot);
      const editedAt = Date.now();
      const changed = (await edit.apply(devRoot)) !== false;
      const [warm, devOutcome] = await Promise.all([
        // A replay is checked against the build it stands for (src/build/shortcuts.ts).
        edit.replays
          ? siteBuild(buildRoot, ['--quiet', '--explain'], { SITE_CHECK_SHORTCUTS: '1' })
          : siteBuild(buildRoot, ['--quiet']),
        devSettled(dev, since, lastDev, where, editedAt, changed),
      ]);
      lastDev = devOutcome;
      await Promise.all([rm(cold, { recursive: true, force: true }), rm(coldDrafts, { recursive: true, force: true })]);
      const [fromNothing, fromNothingDrafts] = await Promise.all([
        siteBuild(buildRoot, ['--quiet', '--no-cache', '--out', cold]),
        siteBuild(devRoot, ['--quiet', '--no-cache', '--drafts', '--out', coldDrafts]),
      ]);
      const problems: string[] = [];
      const compare = (mode: string, made: Outcome, expected: Outcome) => {
        if (made.ok !== expected.ok)
          problems.push(
            `${mode}: ${made.ok ? 'succeeded' : 'failed'} where a build from nothing ${expected.ok ? 'succeeded' : 'failed'}\n${made.said ?? expected.said ?? ''}`,
          );
        const errors = (outcome: Outcome) => outcome.codes.filter((code) => code.startsWith('error')).join(', ');
        if (errors(made) !== errors(expected))
          problems.push(`${mode}: errors [${errors(made)}], from nothing [${errors(expected)}]`);
      };
      compare('site build', warm, fromNothing);
      if (edit.replays && memory.recorded && !warm.replayed)
        problems.push('site build: nothing changed since a build that kept its record, yet it was not replayed');
      compare('site dev', devOutcome, fromNothingDrafts);
      if (warm.ok && fromNothing.ok) {
        const differ = await outputDifferences(path.join(buildRoot, 'dist'), cold, true);
        if (differ.length > 0)
          problems.push(
            `site build: ${differ.length} files differ from a build from nothing: ${differ.slice(0, 8).join(', ')}`,
          );
      }
      if (devOutcome.ok && fromNothingDrafts.ok) {
        const differ = await outputDifferences(path.join(devRoot, '.cache', 'dev'), coldDrafts, false);
        if (differ.length > 0)
          problems.push(
            `site dev: ${differ.length} files differ from site build --drafts --no-cache: ${differ.slice(0, 8).join(', ')}`,
          );
      }
      // A save the watcher missed, found by the sweep (src/dev/sweep.ts): built, so no failure, but
      // named in the log, as a clue to the watcher's gap.
      const swept = dev.output().slice(since).includes('a save the file watcher did not report')
        ? ' (a save its watcher missed, found by the sweep)'
        : '';
      log(
        `step ${step}: ${edit.name}: build ${warm.ok ? 'ok' : `failed [${warm.codes.join(', ')}]`}, dev ${devOutcome.ok ? 'ok' : 'failed'}${swept}${problems.length ? ' ✗' : ''}`,
      );
      if (problems.length > 0)
        throw new StaleOutputFound(
          `stale output at ${where} (replay: STALE_SEED=${options.seed} STALE_STEPS=${step}):\n  ${problems.join('\n  ')}\nsite dev said:\n${dev.output().slice(since)}`,
        );
    }
  } finally {
    // Ctrl-C (SIGTERM here) ends site dev, whatever it lived through: checked below.
    ended = await Promise.race([
      dev?.stop().then(() => true) ?? true,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
    ]);
    dev?.kill();
    await rm(work, { recursive: true, force: true });
  }
  if (!ended) throw new StaleOutputFound(`site dev did not end within 15 s of SIGTERM (seed ${options.seed})`);
  return { steps: options.steps, milliseconds: Date.now() - started };
}
