// Preloaded into a measured process (NODE_OPTIONS=--require): on exit, writes the process's peak
// resident set size in kilobytes (worker threads included) to the file BENCH_RSS_FILE names. A
// child process it starts (the image encoder) inherits the preload and exits first: the file
// keeps the larger of the two, the largest single process of the command.
const { readFileSync, writeFileSync } = require('node:fs');

process.on('exit', () => {
  const file = process.env.BENCH_RSS_FILE;
  if (!file) return;
  let before = 0;
  try {
    before = Number(readFileSync(file, 'utf8')) || 0;
  } catch {
    // The first process to end.
  }
  writeFileSync(file, String(Math.max(before, process.resourceUsage().maxRSS)));
});
