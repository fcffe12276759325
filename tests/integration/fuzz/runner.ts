// The parent side of tests/integration/fuzz/checkWorker.ts: one child process running `site check` on
// request, one case at a time, with a time limit per case. A case that overruns it is a hang:
// the child is killed (its whole state is suspect) and a fresh one is started for the next case.
import { type ChildProcess, fork } from 'node:child_process';
import { cp, lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic';
import type { CheckReply } from './checkWorker';
import { applyDamage, type Damage, describeDamage, type Expectation, expectationOf, restoreDamage } from './damage';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');

export type CheckOutcome =
  | (CheckReply & { timedOut?: false })
  | { timedOut: true; ms: number; exitCode?: undefined; stdout: ''; stderr: string; crashed?: undefined };

export class CheckRunner {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 1;
  private pending: { id: number; resolve: (reply: CheckReply) => void; reject: (error: Error) => void } | undefined;
  /** Children started (the first one, and one after each hang or death). */
  starts = 0;
  private stderrTail = '';

  constructor(private readonly options: { timeoutMs: number }) {}

  private start(): Promise<void> {
    this.starts++;
    const child = fork(path.join(import.meta.dirname, 'checkWorker.ts'), [], {
      cwd: PROJECT_ROOT,
      // As bin/site does: tsx with the project's tsconfig (JSX), React's production build.
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: path.join(PROJECT_ROOT, 'tsconfig.json'),
        NODE_ENV: 'production',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    this.child = child;
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4000);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if ((message as { ready?: boolean }).ready) {
          child.off('exit', onEarlyExit);
          resolve();
          return;
        }
        const reply = message as CheckReply;
        if (this.pending?.id === reply.id) {
          const { resolve: answer } = this.pending;
          this.pending = undefined;
          answer(reply);
        }
      };
      const onEarlyExit = (code: number | null) =>
        reject(new Error(`the check worker exited (${code}) before it was ready:\n${this.stderrTail}`));
      child.on('message', onMessage);
      child.once('exit', onEarlyExit);
      child.on('exit', (code, signal) => {
        if (this.child === child) this.child = undefined;
        if (this.pending) {
          const { reject: fail } = this.pending;
          this.pending = undefined;
          fail(new Error(`the check worker died (exit ${code}, signal ${signal}):\n${this.stderrTail}`));
        }
      });
    });
    return this.ready;
  }

  /** Runs `site check --format json --root <root>` in the child, within the time limit. */
  check(root: string, timeoutMs = this.options.timeoutMs): Promise<CheckOutcome> {
    return this.request({ root }, timeoutMs);
  }

  /** Builds `root` once in the child, leaving its markdown cache in <root>/.cache/site. */
  warm(root: string, timeoutMs = 180_000): Promise<CheckOutcome> {
    return this.request({ root, warm: true }, timeoutMs);
  }

  private async request(message: { root: string; warm?: boolean }, timeoutMs: number): Promise<CheckOutcome> {
    if (!this.child) await this.start();
    await this.ready;
    const child = this.child as ChildProcess;
    const id = this.nextId++;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<CheckOutcome>((resolve, reject) => {
        this.pending = { id, resolve, reject };
        timer = setTimeout(() => {
          this.pending = undefined;
          this.kill(child);
          resolve({ timedOut: true, ms: Math.round(performance.now() - started), stdout: '', stderr: '' });
        }, timeoutMs);
        child.send({ id, ...message });
      });
    } catch (error) {
      // The child died during the case (out of memory, a native crash): that is the case's crash,
      // reported as the CLI would have ended, with the next case on a fresh child.
      const message = (error as Error).message;
      return {
        id,
        exitCode: 1,
        stdout: '',
        stderr: message,
        crashed: { name: 'WorkerDied', message, stack: '', via: 'thrown' },
        ms: Math.round(performance.now() - started),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  private kill(child: ChildProcess): void {
    if (this.child === child) this.child = undefined;
    child.kill('SIGKILL');
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

// ---------------------------------------------------------------------------------------------
// The property: what every case's check must do

/** A diagnostic as `site check --format json` prints it (checked field by field by `judge`). */
export type ReportedDiagnostic = Diagnostic;

/** One way a case broke the promise, with a class for grouping (the same bug in many cases). */
export interface Problem {
  /**
   * crash | hang | not-json | bad-diagnostic | stack-trace | raw-error-text | internal-error |
   * exit-code | exit-1-without-error | exit-0-with-error | silent | wrong-file | error-expected
   */
  kind: string;
  /** Grouping key: the problem without what varies from case to case (offsets, values). */
  group: string;
  /** The damage's kind and the kind of file it hit. */
  label: string;
  detail: string;
}

const STACK_LINE = /^\s+at .+\(.+:\d+:\d+\)$|^\s+at \/?[^\s]+:\d+:\d+$/m;
const RAW_ERROR =
  /\b(?:RangeError|TypeError|ReferenceError|SyntaxError|EvalError|URIError|AggregateError|Error):|Maximum call stack size exceeded|Cannot read properties of|is not a function|is not iterable|\[object Object\]/;

/** The first frames of a stack that are the project's own (or the first frames at all). */
export function stackTop(stack: string, frames = 3): string {
  const lines = stack
    .replace(/\u001b\[\d+m/g, '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .map((l) =>
      l.trim().replace(/^at /, '').replaceAll(`file://${PROJECT_ROOT}/`, '').replaceAll(`${PROJECT_ROOT}/`, ''),
    );
  const own = lines.filter((l) => /\b(?:src|server|templates)\//.test(l) && !l.includes('node_modules'));
  return (own.length ? [lines[0] ?? '', ...own.slice(0, frames)] : lines.slice(0, frames))
    .filter((l, i, all) => l && all.indexOf(l) === i)
    .join(' ← ');
}

function fileKindLabel(file: string): string {
  if (file.startsWith('content/media/')) return 'media';
  if (file.startsWith('content/categories/')) return 'category JSON';
  if (file.startsWith('content/pages/')) return 'page JSON';
  if (file.endsWith('.json')) return 'site-wide JSON';
  if (file.startsWith('content/blog/')) return 'article';
  return 'file';
}

/** A short label of the damage for grouping: kind, and what kind of file it hit. */
export function damageLabel(damage: Damage): string {
  const extra =
    damage.kind === 'nest'
      ? ` ${damage.pattern}`
      : damage.kind === 'symlink'
        ? ` ${damage.target}`
        : damage.kind === 'huge'
          ? ` ${damage.fill}`
          : '';
  return `${damage.kind}${extra} (${fileKindLabel(damage.file)})`;
}

/**
 * Every way `outcome` breaks the property for `damage`: ended in time; exit 0 or 1; stdout a JSON
 * array of well-formed diagnostics; exit 1 only with an error; what `expectation` asks for; some
 * diagnostic naming the damaged file whenever it exits 1; no stack trace or raw JS error text.
 */
export function judge(
  damage: Damage,
  expectation: Expectation,
  outcome: CheckOutcome,
  baseline: readonly ReportedDiagnostic[] = [],
): Problem[] {
  const label = damageLabel(damage);
  const problems: Problem[] = [];
  // Crashes and raw error text are grouped by where they happen (one bug, many damages); the
  // other problems by the damage (one missing rule each).
  const add = (kind: string, detail: string, signature = '') =>
    problems.push({
      kind,
      label,
      group: ['crash', 'raw-error-text', 'stack-trace', 'internal-error'].includes(kind)
        ? `${kind}: ${signature}`
        : `${kind}: ${label}${signature ? ` — ${signature}` : ''}`,
      detail,
    });
  if (outcome.timedOut) {
    add('hang', `no answer within ${outcome.ms} ms`);
    return problems;
  }
  if (outcome.crashed) {
    const c = outcome.crashed;
    const top = stackTop(c.stack);
    const message = c.message.split('\n')[0] ?? '';
    // Grouped by where it happened: one bug throws many messages (every JSON syntax error).
    // The project's own frame when the stack reaches it, else the library it happened in (a stack
    // overflow's frames are all the library's recursion).
    const frames = top.split(' ← ');
    const own = frames.find((f) => /\b(?:src|server|templates)\//.test(f) && !f.includes('node_modules'));
    const library = frames.map((f) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f)?.[1]).find(Boolean);
    const where = own ?? (library ? `${library} (a library)` : frames[0]);
    add(
      'crash',
      `${c.name}: ${message.slice(0, 300)} (${c.via}) at ${top}`,
      `${c.name} ${c.via === 'thrown' ? '' : `(${c.via}) `}at ${where}`,
    );
    return problems;
  }
  for (const [stream, text] of [
    ['stdout', outcome.stdout],
    ['stderr', outcome.stderr],
  ] as const) {
    if (STACK_LINE.test(text))
      add('stack-trace', `${stream} holds a stack trace: ${text.match(STACK_LINE)?.[0]?.trim()}`, stream);
  }
  if (outcome.exitCode !== 0 && outcome.exitCode !== 1) add('exit-code', `exit code ${outcome.exitCode}`);
  let diagnostics: ReportedDiagnostic[];
  try {
    const parsed = JSON.parse(outcome.stdout) as unknown;
    if (!Array.isArray(parsed)) throw new Error('not an array');
    diagnostics = parsed as ReportedDiagnostic[];
  } catch (error) {
    add(
      'not-json',
      `stdout is not a JSON array (${(error as Error).message}): ${JSON.stringify(outcome.stdout.slice(0, 200))}; stderr: ${JSON.stringify(outcome.stderr.slice(0, 300))}`,
    );
    return problems;
  }
  for (const d of diagnostics) {
    const ok =
      d &&
      typeof d === 'object' &&
      typeof d.code === 'string' &&
      /^[A-Z][A-Z0-9]*\d{3}$/.test(d.code) &&
      (d.severity === 'error' || d.severity === 'warning') &&
      typeof d.file === 'string' &&
      d.file.length > 0 &&
      !path.isAbsolute(d.file) &&
      !d.file.startsWith('..') &&
      Number.isInteger(d.line) &&
      d.line >= 0 &&
      Number.isInteger(d.column) &&
      d.column >= 0 &&
      typeof d.message === 'string' &&
      d.message.length > 0 &&
      typeof d.hint === 'string';
    if (!ok) add('bad-diagnostic', `malformed diagnostic: ${JSON.stringify(d).slice(0, 300)}`);
    if (d && RAW_ERROR.test(`${d.message}\n${d.hint}`))
      add('raw-error-text', `${d.code} on ${d.file}: ${d.message.slice(0, 200)}`, d.code);
    // A fault of the tool caught by an error boundary: no stack trace, but still a bug to fix.
    if (d && typeof d.code === 'string' && d.code.startsWith('INTERNAL'))
      add(
        'internal-error',
        `${d.code} on ${d.file}: ${d.message.slice(0, 300)}`,
        `${d.code} on ${d.file === 'content' ? 'content' : fileKindLabel(d.file)}: ${d.message
          .replace(/"[^"]*"/g, '"…"')
          .replace(/\d+/g, 'N')
          .slice(0, 100)}`,
      );
  }
  const known = new Set(baseline.map((d) => `${d.code} ${d.file} ${d.message}`));
  const fresh = diagnostics.filter((d) => !known.has(`${d.code} ${d.file} ${d.message}`));
  const errors = fresh.filter((d) => d.severity === 'error');
  if (outcome.exitCode === 1 && !diagnostics.some((d) => d.severity === 'error'))
    add('exit-1-without-error', `exit 1 with ${diagnostics.length} diagnostics and no error`);
  if (outcome.exitCode === 0 && diagnostics.some((d) => d.severity === 'error'))
    add('exit-0-with-error', 'exit 0 with an error diagnostic');
  const names = (d: ReportedDiagnostic) =>
    expectation.files.includes(d.file) ||
    expectation.mentions.some((m) => d.message.includes(m) || d.message.toLowerCase().includes(m.toLowerCase()));
  const summary = (ds: ReportedDiagnostic[]) =>
    ds.length === 0
      ? 'no diagnostics'
      : ds
          .slice(0, 4)
          .map((d) => `${d.severity} ${d.code} ${d.file}:${d.line}: ${d.message.slice(0, 120)}`)
          .join(' | ') + (ds.length > 4 ? ` (+${ds.length - 4} more)` : '');
  const codes = (ds: ReportedDiagnostic[]) =>
    [...new Set(ds.map((d) => `${d.code}@${fileKindLabel(d.file)}`))].sort().join(',') || 'none';
  if (expectation.report === 'error' && !errors.some(names)) {
    add(
      fresh.length === 0 ? 'silent' : errors.length === 0 ? 'error-expected' : 'wrong-file',
      `${expectation.because}: expected an error naming ${expectation.files.join(' or ')}, got ${summary(fresh)}`,
      `${expectation.because}; got ${codes(fresh)}`,
    );
  } else if (expectation.report === 'diagnostic' && !fresh.some(names)) {
    add(
      fresh.length === 0 ? 'silent' : 'wrong-file',
      `${expectation.because}: expected a diagnostic naming ${expectation.files.join(' or ')}, got ${summary(fresh)}`,
      `${expectation.because}; got ${codes(fresh)}`,
    );
  } else if (outcome.exitCode === 1 && errors.length > 0 && !fresh.some(names)) {
    add(
      'wrong-file',
      `exit 1, but no diagnostic names ${expectation.files.join(' or ')} (nor mentions ${expectation.mentions.slice(1).join(', ') || 'it'}): ${summary(fresh)}`,
      `got ${codes(fresh)}`,
    );
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// A fuzz session: a pristine copy of content/, a working copy the damage is applied to, the
// check worker, and the figures of the run.

export interface CaseResult {
  damage: Damage;
  expectation: Expectation;
  outcome: CheckOutcome;
  problems: Problem[];
  /** The check's own time, and the whole case's (damage, check, restore). */
  checkMs: number;
  caseMs: number;
}

export interface FuzzFigures {
  cases: number;
  /** Of those, the fixed cases (run with an expectation of their own) rather than random ones. */
  fixedCases: number;
  failedCases: number;
  /** Wall time of the cases (damage, check, restore), without the set-up. */
  totalMs: number;
  setupMs: number;
  slowest?: { damage: string; ms: number; timedOut: boolean };
  /** The five slowest cases, slowest first. */
  slowestCases: { damage: string; ms: number; timedOut: boolean }[];
  workerStarts: number;
  /** Distinct problems, by group, with a count, the damages that showed it and the first case. */
  problems: { group: string; count: number; damages: string[]; example: string; detail: string }[];
}

export class FuzzSession {
  readonly base: string;
  /** The folder given to `site --root`: it holds only content/ (and the markdown cache in .cache/). */
  readonly root: string;
  readonly pristine: string;
  readonly runner: CheckRunner;
  baseline: ReportedDiagnostic[] = [];
  private figures = {
    cases: 0,
    fixedCases: 0,
    failedCases: 0,
    totalMs: 0,
    setupMs: 0,
    slowest: undefined as FuzzFigures['slowest'],
    slowestCases: [] as FuzzFigures['slowestCases'],
  };
  private groups = new Map<string, { count: number; damages: Set<string>; example: string; detail: string }>();

  private constructor(base: string, timeoutMs: number) {
    this.base = base;
    this.root = path.join(base, 'site');
    this.pristine = path.join(base, 'pristine');
    this.runner = new CheckRunner({ timeoutMs });
  }

  /** Copies the project's content/ twice into a new temporary folder, starts the worker and warms its cache. */
  static async open(options: { timeoutMs: number; source?: string }): Promise<FuzzSession> {
    const started = performance.now();
    const session = new FuzzSession(await mkdtemp(path.join(os.tmpdir(), 'site-fuzz-')), options.timeoutMs);
    const source = path.join(options.source ?? PROJECT_ROOT, 'content');
    await cp(source, path.join(session.pristine, 'content'), { recursive: true, verbatimSymlinks: true });
    await cp(source, path.join(session.root, 'content'), { recursive: true, verbatimSymlinks: true });
    const warm = await session.runner.warm(session.root);
    if (warm.timedOut || warm.crashed || warm.exitCode !== 0) {
      throw new Error(
        `the real content does not build, so it cannot be the start of the fuzz test: ${warm.timedOut ? 'timed out' : warm.crashed ? `${warm.crashed.name}: ${warm.crashed.message}` : warm.stdout.slice(0, 2000)}`,
      );
    }
    const first = await session.runner.check(session.root);
    if (first.timedOut || first.crashed) throw new Error('site check of the untouched content did not end normally');
    session.baseline = JSON.parse(first.stdout) as ReportedDiagnostic[];
    session.figures.setupMs = Math.round(performance.now() - started);
    return session;
  }

  /** Applies the damage, runs the check, restores the tree, and judges the outcome. */
  async run(damage: Damage, override?: Partial<Pick<Expectation, 'report' | 'because'>>): Promise<CaseResult> {
    const started = performance.now();
    const readRegular = async (file: string) => {
      try {
        const info = await lstat(file);
        return info.isFile() ? await readFile(file) : undefined;
      } catch {
        return undefined;
      }
    };
    const before = await readRegular(path.join(this.pristine, damage.file));
    let touched: string[] = [];
    let outcome: CheckOutcome;
    let after: Buffer | undefined;
    try {
      touched = await applyDamage(this.root, damage);
      after = await readRegular(path.join(this.root, damage.file));
      outcome = await this.runner.check(this.root);
    } finally {
      await restoreDamage(this.root, this.pristine, touched);
    }
    const expectation = { ...expectationOf(damage, after, before), ...override };
    const problems = judge(damage, expectation, outcome, this.baseline);
    const caseMs = Math.round(performance.now() - started);
    if (override) this.figures.fixedCases++;
    this.record(damage, outcome, problems, caseMs);
    return { damage, expectation, outcome, problems, checkMs: outcome.ms, caseMs };
  }

  private record(damage: Damage, outcome: CheckOutcome, problems: Problem[], caseMs: number): void {
    this.figures.cases++;
    this.figures.totalMs += caseMs;
    if (problems.length) this.figures.failedCases++;
    const timing = { damage: describeDamage(damage), ms: caseMs, timedOut: Boolean(outcome.timedOut) };
    if (!this.figures.slowest || caseMs > this.figures.slowest.ms) this.figures.slowest = timing;
    this.figures.slowestCases = [...this.figures.slowestCases, timing].sort((a, b) => b.ms - a.ms).slice(0, 5);
    for (const p of problems) {
      const g = this.groups.get(p.group);
      if (g) {
        g.count++;
        g.damages.add(p.label);
      } else
        this.groups.set(p.group, {
          count: 1,
          damages: new Set([p.label]),
          example: describeDamage(damage),
          detail: p.detail,
        });
    }
  }

  report(): FuzzFigures {
    return {
      ...this.figures,
      workerStarts: this.runner.starts,
      problems: [...this.groups]
        .map(([group, g]) => ({ group, ...g, damages: [...g.damages].sort() }))
        .sort((a, b) => a.group.localeCompare(b.group)),
    };
  }

  /** Files of the working copy that differ from the pristine one (after every case is restored: none). */
  async differences(): Promise<string[]> {
    const list = async (dir: string) => {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      return new Map(entries.map((e) => [path.relative(dir, path.join(e.parentPath, e.name)), e]));
    };
    const [a, b] = await Promise.all([
      list(path.join(this.root, 'content')),
      list(path.join(this.pristine, 'content')),
    ]);
    const out: string[] = [];
    for (const name of new Set([...a.keys(), ...b.keys()])) {
      const x = a.get(name);
      const y = b.get(name);
      if (!x || !y) out.push(`${name}: ${x ? 'added' : 'missing'}`);
      else if (x.isFile() !== y.isFile() || x.isSymbolicLink() !== y.isSymbolicLink())
        out.push(`${name}: changed type`);
      else if (x.isFile()) {
        const [p, q] = await Promise.all([
          readFile(path.join(this.root, 'content', name)),
          readFile(path.join(this.pristine, 'content', name)),
        ]);
        if (!p.equals(q)) out.push(`${name}: changed`);
        const [m, n] = await Promise.all([
          lstat(path.join(this.root, 'content', name)),
          lstat(path.join(this.pristine, 'content', name)),
        ]);
        if (m.mode !== n.mode) out.push(`${name}: mode ${m.mode.toString(8)}`);
      }
    }
    return out.sort();
  }

  async close(): Promise<void> {
    await this.runner.close();
    await rm(this.base, { recursive: true, force: true });
  }
}

/** The figures as a few lines of text. */
export function formatFigures(f: FuzzFigures): string {
  const lines = [
    `content fuzz: ${f.cases} cases (${f.fixedCases} fixed, ${f.cases - f.fixedCases} random) in ${(f.totalMs / 1000).toFixed(1)} s (${f.cases ? Math.round(f.totalMs / f.cases) : 0} ms a case; set-up ${(f.setupMs / 1000).toFixed(1)} s), ${f.failedCases} failed, worker started ${f.workerStarts} time(s)`,
  ];
  for (const [i, c] of f.slowestCases.entries())
    lines.push(
      `${i === 0 ? 'slowest cases:' : '              '} ${c.ms} ms${c.timedOut ? ' (timed out)' : ''}: ${c.damage}`,
    );
  for (const p of f.problems) {
    lines.push(`  ${p.count} × ${p.group}`);
    if (p.damages.length > 1 || !p.group.includes(p.damages[0] ?? ''))
      lines.push(`      from: ${p.damages.join('; ')}`);
    lines.push(`      e.g. ${p.example}`, `      ${p.detail.slice(0, 400)}`);
  }
  return lines.join('\n');
}
