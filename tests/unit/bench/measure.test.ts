import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuOfScripts } from '../../bench/measure';

const PRELOAD = path.join(import.meta.dirname, '../../bench/rss.cjs');

describe("the bench's CPU time by the script each process ran", () => {
  it('sums the processes of one script, and keeps the lines written before scripts were named', () => {
    expect(cpuOfScripts('site\t49550000\nencoder\t11280000\ndrawWorker\t9310000\nencoder\t20000\n')).toEqual({
      site: 49550,
      encoder: 11300,
      drawWorker: 9310,
    });
    expect(cpuOfScripts('1500000\n')).toEqual({ node: 1500 });
    expect(cpuOfScripts('')).toEqual({});
  });

  it('is written by the preload of each process and of a child it starts, under each script’s name', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-cpu-'));
    try {
      const child = path.join(dir, 'encoder.mjs');
      const parent = path.join(dir, 'site');
      await writeFile(child, 'let x = 0; for (let i = 0; i < 1e6; i++) x += i;\n');
      await writeFile(
        parent,
        `require('node:child_process').execFileSync(process.execPath, [${JSON.stringify(child)}], { stdio: 'inherit' });\n`,
      );
      const cpuFile = path.join(dir, 'cpu');
      execFileSync(process.execPath, [parent], {
        env: {
          ...process.env,
          NODE_OPTIONS: `--require=${PRELOAD}`,
          BENCH_CPU_FILE: cpuFile,
          BENCH_RSS_FILE: path.join(dir, 'rss'),
        },
      });
      const byScript = cpuOfScripts(await readFile(cpuFile, 'utf8'));
      expect(Object.keys(byScript).sort()).toEqual(['encoder', 'site']);
      for (const ms of Object.values(byScript)) expect(ms).toBeGreaterThan(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
