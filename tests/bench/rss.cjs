// Preloaded into a measured process (NODE_OPTIONS=--require): on exit, writes the process's peak
// resident set size in kilobytes (worker threads included) to the file BENCH_RSS_FILE names.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
