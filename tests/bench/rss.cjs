// Preloaded into a measured process (NODE_OPTIONS=--require): on exit, writes the process's peak
// resident set size in kilobytes (worker threads included) to the file BENCH_RSS_FILE names, and
// appends its CPU time (user and system, all its threads) in microseconds as a line of the file
// BENCH_CPU_FILE names, after the name of the script it runs and a tab. A child process it starts
// (the image encoder, the card-drawing process) inherits the preload and exits first: the RSS
// file keeps the largest, the largest single process of the command; the CPU file has a line for
// each, summed by the bench, and read by name for the CPU each kind of process took.
// The preload runs in worker threads too, where process.resourceUsage() is the whole process's:
// only the main thread records.
const { appendFileSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { isMainThread } = require('node:worker_threads');

process.on('exit', () => {
  if (!isMainThread) return;
  const file = process.env.BENCH_RSS_FILE;
  const usage = process.resourceUsage();
  const script = process.argv[1] ?? 'node';
  if (process.env.BENCH_CPU_FILE)
    appendFileSync(
      process.env.BENCH_CPU_FILE,
      `${path.basename(script, path.extname(script))}\t${usage.userCPUTime + usage.systemCPUTime}\n`,
    );
  if (!file) return;
  let before = 0;
  try {
    before = Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    // The first process to end.
  }
  writeFileSync(file, String(Math.max(before, usage.maxRSS)));
});
