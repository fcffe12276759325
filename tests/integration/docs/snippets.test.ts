/**
 * Every command the documentation shows works, so the docs cannot drift from the tool. The shell
 * blocks (```sh) of README.md, CONTRIBUTING.md and docs/*.md are read line by line:
 *
 * - every `site` command line (`npx site ...`) must name subcommands and `--options` that the
 *   tool's own `--help` lists for that subcommand;
 * - every `npm run <script>` must name a script of package.json, and each `--option` after it must
 *   be named by the file that script runs (its usage text); a `node <file>` line likewise;
 * - every file a command names (`tests/...`, `content/...`) must exist;
 * - a block marked ```sh runnable is also run, line by line, against a copy of the real site, and
 *   each line must exit 0. Only cheap `site` commands may be marked so (CONTRIBUTING.md, "Commands
 *   in the docs"): nothing that builds the whole site, serves, or needs the network.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { copyOfContent, PROJECT_ROOT } from '../../support/content';

const run = promisify(execFile);
const SITE = path.join(PROJECT_ROOT, 'bin/site');

/** One command line of a shell block, with where it is written. */
interface Command {
  /** The file and 1-based line, for the failure message. */
  at: string;
  /** The command as written, its trailing comment removed. */
  text: string;
  words: string[];
  runnable: boolean;
}

/** The documents whose shell blocks are checked. */
async function documents(): Promise<string[]> {
  const docs = (await readdir(path.join(PROJECT_ROOT, 'docs')))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs.sort()];
}

/** The command lines of every ```sh block of a document; `runnable` when its info string says so. */
function commandsOf(file: string, text: string): Command[] {
  const commands: Command[] = [];
  // The fence that opened the block being read, and whether it is a shell block; a fence closes
  // only on one of at least its length, so a longer fence can show a shell block as an example.
  let open: { fence: string; sh?: { runnable: boolean } } | undefined;
  text.split('\n').forEach((line, index) => {
    const fence = /^\s*(`{3,})(.*)$/.exec(line);
    if (fence) {
      const [, ticks = '', rest = ''] = fence;
      if (!open) {
        const info = rest.trim().split(/\s+/);
        open = { fence: ticks, ...(info[0] === 'sh' && { sh: { runnable: info.includes('runnable') } }) };
        return;
      }
      if (ticks.length >= open.fence.length && rest.trim() === '') {
        open = undefined;
        return;
      }
    }
    const block = open?.sh;
    if (!block) return;
    // A comment after the command (" # ..."); a "#" inside a word (a URL's fragment) is kept.
    const command = line.replace(/\s+#\s.*$/, '').trim();
    if (command === '' || command.startsWith('#')) return;
    commands.push({ at: `${file}:${index + 1}`, text: command, words: wordsOf(command), runnable: block.runnable });
  });
  return commands;
}

/** A command's words: split on spaces, quotes taken off; no shell expansion. */
function wordsOf(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** What `site ... --help` lists: its subcommands and its options. */
interface Help {
  commands: Set<string>;
  /** Each option, and whether it takes a value ("--format <format>"). */
  options: Map<string, boolean>;
}

const helps = new Map<string, Promise<Help>>();

/** The help of a subcommand path ([] for `site` itself), asked once. */
function helpOf(subcommands: readonly string[]): Promise<Help> {
  const key = subcommands.join(' ');
  let help = helps.get(key);
  if (!help) {
    help = run(process.execPath, [SITE, ...subcommands, '--help'], { cwd: PROJECT_ROOT }).then(({ stdout }) =>
      parseHelp(stdout),
    );
    helps.set(key, help);
  }
  return help;
}

/** Commander's help: "Options:" and "Commands:" sections, each entry indented by two spaces. */
function parseHelp(text: string): Help {
  const help: Help = { commands: new Set(), options: new Map() };
  let section = '';
  for (const line of text.split('\n')) {
    if (/^\S.*:$/.test(line)) section = line;
    const entry = /^ {2}(\S.*)$/.exec(line)?.[1];
    if (!entry) continue;
    if (section === 'Options:') {
      const flags = entry.split(/\s{2,}/)[0] ?? '';
      for (const option of flags.match(/--[\w-]+/g) ?? []) help.options.set(option, flags.includes('<'));
    }
    if (section === 'Commands:') help.commands.add(entry.split(/\s/)[0] as string);
  }
  return help;
}

/** The `site` line's problems: a subcommand or an option its help does not list. */
async function siteProblems(words: readonly string[]): Promise<string[]> {
  const root = await helpOf([]);
  const subcommands: string[] = [];
  let help = root;
  const problems: string[] = [];
  let value = false;
  for (const raw of words) {
    // Usage notation ("[--strict]", "--lang en|pt|both") is read as the options it names.
    const word = raw.replace(/^\[+|\]+$/g, '');
    if (value) {
      value = false; // the value of the option before it
    } else if (word.startsWith('--')) {
      const [option = '', given] = word.split('=');
      const takes = help.options.get(option) ?? root.options.get(option);
      if (takes === undefined) problems.push(`"site ${subcommands.join(' ')}" has no option ${option}`);
      value = takes === true && given === undefined;
    } else if (!word.startsWith('-') && help.commands.size > 0) {
      // A command with subcommands takes no argument of its own: the word must be one of them.
      if (!help.commands.has(word)) {
        problems.push(`"site ${subcommands.join(' ')}" has no command "${word}"`);
        break;
      }
      subcommands.push(word);
      help = await helpOf(subcommands);
    }
  }
  return problems;
}

/** The file a script of package.json or a `node` line runs: its last word that is a file of the project. */
function scriptFile(words: readonly string[]): string | undefined {
  return [...words].reverse().find((w) => /\.(m?js|ts|cjs)$/.test(w) && existsSync(path.join(PROJECT_ROOT, w)));
}

/** Problems of any command line, `site` or not. */
async function problemsOf(command: Command, scripts: Record<string, string>): Promise<string[]> {
  const words = command.words.filter((w) => !/^[A-Z_]+=/.test(w)); // environment assignments
  const problems: string[] = [];
  // Every path of the project a command names exists ("<seed>" and other placeholders aside).
  for (const word of words) {
    if (
      /^(tests|src|content|templates|server|scripts|docs|bin)\//.test(word) &&
      !/[<*$]/.test(word) &&
      !existsSync(path.join(PROJECT_ROOT, word))
    ) {
      problems.push(`names ${word}, which does not exist`);
    }
  }
  if (words[0] === 'npx' && words[1] === 'site') problems.push(...(await siteProblems(words.slice(2))));
  if (words[0] === 'npm' && words[1] === 'run') {
    const script = words[2] ?? '';
    if (!(script in scripts)) problems.push(`package.json has no script "${script}"`);
    else problems.push(...(await namedOptions(words.slice(3), scriptFile((scripts[script] ?? '').split(/\s+/)))));
  }
  if (words[0] === 'node')
    problems.push(
      ...(await namedOptions(words.slice(words.findIndex((w) => /\.(m?js|ts)$/.test(w)) + 1), scriptFile(words))),
    );
  return problems;
}

/** Each `--option` of a script's line must be named in the file the script runs. */
async function namedOptions(words: readonly string[], file: string | undefined): Promise<string[]> {
  const options = words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0] as string);
  if (options.length === 0) return [];
  if (!file) return [`runs no file of the project to look its options up in (${options.join(', ')})`];
  const source = await readFile(path.join(PROJECT_ROOT, file), 'utf8');
  return options.filter((o) => !source.includes(o)).map((o) => `${file} names no option ${o}`);
}

const files = await documents();
const commands = (
  await Promise.all(files.map(async (file) => commandsOf(file, await readFile(path.join(PROJECT_ROOT, file), 'utf8'))))
).flat();
const scripts = (
  JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

describe('the commands shown in the documentation', () => {
  it('are found: every document has its shell blocks read', () => {
    expect(commands.filter((c) => c.words[1] === 'site').length).toBeGreaterThan(20);
    expect(commands.some((c) => c.runnable)).toBe(true);
  });

  it('name only subcommands, options, scripts and files that exist', async () => {
    const problems = (
      await Promise.all(
        commands.map(async (c) => (await problemsOf(c, scripts)).map((p) => `${c.at}: ${c.text}\n    ${p}`)),
      )
    ).flat();
    expect(problems).toEqual([]);
  });

  it('mark as runnable only `site` commands, which the test can run on a copy of the site', () => {
    const others = commands.filter((c) => c.runnable && !(c.words[0] === 'npx' && c.words[1] === 'site'));
    expect(others.map((c) => `${c.at}: ${c.text}`)).toEqual([]);
  });

  it("keep the README's two commands, the ones CI runs on a fresh clone", async () => {
    const readme = commands.filter((c) => c.at.startsWith('README.md:')).map((c) => c.text);
    expect(readme.slice(0, 2)).toEqual(['npm install && npm start', 'npm test']);
    const ci = await readFile(path.join(PROJECT_ROOT, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm install\b/m);
    expect(ci).toMatch(/^npm test$/m);
    expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['start', 'test']));
  });
});

describe('the runnable blocks, run on a copy of the real site', () => {
  // The blocks of one document run in order on a copy of its own (a later one may rely on an
  // earlier one's file); the documents run at once.
  for (const file of files) {
    const runnable = commands.filter((c) => c.runnable && c.at.startsWith(`${file}:`));
    if (runnable.length === 0) continue;
    // Each command loads the site: a few seconds on a quiet machine, more on a busy one.
    it.concurrent(`${file}: ${runnable.length} commands exit 0`, { timeout: 120_000 }, async () => {
      const copy = await copyOfContent();
      try {
        for (const command of runnable) {
          const outcome = await run(process.execPath, [SITE, ...command.words.slice(2)], {
            cwd: copy.root,
            env: { ...process.env, CI: 'true', NO_COLOR: '1' },
          }).then(
            () => 'exit 0',
            (error: { code?: number; stdout?: string; stderr?: string }) =>
              `exit ${error.code}\n${error.stdout ?? ''}${error.stderr ?? ''}`,
          );
          expect(outcome, `${command.at}: ${command.text}`).toBe('exit 0');
        }
      } finally {
        await copy.cleanup();
      }
    });
  }
});
