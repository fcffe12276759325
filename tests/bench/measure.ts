import { spawn } from 'node:child_process';
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
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
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
  stdout: string;
}

const RSS_PRELOAD = path.join(import.meta.dirname, 'rss.cjs');

/**
 * Runs a command to completion and measures its wall-clock time and peak memory. Fails with the
 * command's output when it exits with an error, so a broken build never reads as a fast one.
 */
export async function timed(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Timed> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-rss-'));
  const rssFile = path.join(scratch, 'rss');
  const env = {
    ...process.env,
    ...options.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require=${RSS_PRELOAD}`.trim(),
    BENCH_RSS_FILE: rssFile,
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
  await rm(scratch, { recursive: true, force: true });
  return { milliseconds, peakRssMb: kilobytes / 1024, stdout: output };
}
