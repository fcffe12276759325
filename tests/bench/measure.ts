import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Median and spread (min to max) of repeated measurements. */
export interface Stats {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN, samples: [...samples] };
}

/** The value at quantile q (0..1) of the samples, nearest rank. */
export function quantile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

export interface Timed {
  milliseconds: number;
  /** Peak resident set size of the process, in megabytes. */
  peakRssMb: number;
  /** CPU time (user and system) of the command's Node processes and all their threads, in milliseconds. */
  cpuMs: number;
  /** The same by the script each process ran (`site`, `encoder`, `drawWorker`), in milliseconds. */
  cpuByScript: Record<string, number>;
  stdout: string;
}

const RSS_PRELOAD = path.join(import.meta.dirname, 'rss.cjs');

/**
 * Runs a command to completion and measures its wall-clock time and peak memory. Fails with the
 * command's output when it exits with an error, so a broken build never reads as a fast one.
 */
export async function timed(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Timed> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-rss-'));
  const rssFile = path.join(scratch, 'rss');
  const cpuFile = path.join(scratch, 'cpu');
  const env = {
    ...process.env,
    ...options.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require=${RSS_PRELOAD}`.trim(),
    BENCH_RSS_FILE: rssFile,
    BENCH_CPU_FILE: cpuFile,
  };
  const started = performance.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ code: exitCode, output }));
  });
  const milliseconds = performance.now() - started;
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`);
  const kilobytes = Number(await readFile(rssFile, 'utf8').catch(() => 'NaN'));
  const cpuByScript = cpuOfScripts(await readFile(cpuFile, 'utf8').catch(() => ''));
  const cpuTimes = Object.values(cpuByScript);
  const cpuMs = cpuTimes.length === 0 ? NaN : cpuTimes.reduce((sum, ms) => sum + ms, 0);
  await rm(scratch, { recursive: true, force: true });
  return { milliseconds, peakRssMb: kilobytes / 1024, cpuMs, cpuByScript, stdout: output };
}

/**
 * The CPU file rss.cjs writes (a line per process: the script's name, a tab, microseconds) as
 * milliseconds by script, the processes of one script summed.
 */
export function cpuOfScripts(text: string): Record<string, number> {
  const byScript: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const script = tab < 0 ? 'node' : line.slice(0, tab);
    byScript[script] = (byScript[script] ?? 0) + Number(line.slice(tab + 1)) / 1000;
  }
  return byScript;
}

/**
 * Waits until the file system has written back what was written before (the last run's output):
 * otherwise that writeback runs during the next run, and a system measured later in the bench pays
 * for the files of one measured before it. What a run replaces is set aside, not removed (setAside.ts).
 */
function settle(): void {
  execFileSync('sync');
}

/** A measure repeated: its wall time, peak memory and CPU time over the runs, and each run. */
export interface Repeated {
  ms: Stats;
  rssMb: Stats;
  cpuMs: Stats;
  /** The CPU of each script's processes (see `Timed.cpuByScript`), over the runs it ran in. */
  cpuByScript: Record<string, Stats>;
  last: Timed;
  all: Timed[];
}

/** Runs `command` `times` times, each after `before`, reporting each run on stderr as it ends. */
export async function repeat(
  label: string,
  times: number,
  before: (run: number) => Promise<void>,
  command: () => Promise<Timed>,
): Promise<Repeated> {
  const all: Timed[] = [];
  for (let run = 0; run < times; run++) {
    await before(run);
    settle();
    const result = await command();
    all.push(result);
    process.stderr.write(
      `  ${label} ${run + 1}/${times}: ${(result.milliseconds / 1000).toFixed(2)} s, ${(result.cpuMs / 1000).toFixed(2)} s CPU, ${result.peakRssMb.toFixed(0)} MB\n`,
    );
  }
  return {
    ms: stats(all.map((t) => t.milliseconds)),
    rssMb: stats(all.map((t) => t.peakRssMb)),
    cpuMs: stats(all.map((t) => t.cpuMs)),
    cpuByScript: Object.fromEntries(
      [...new Set(all.flatMap((t) => Object.keys(t.cpuByScript)))].map((script) => [
        script,
        stats(all.flatMap((t) => t.cpuByScript[script] ?? [])),
      ]),
    ),
    last: all.at(-1) as Timed,
    all,
  };
}
