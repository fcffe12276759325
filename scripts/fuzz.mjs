#!/usr/bin/env node
// `npm run fuzz`: the fuzz tests of issue 15 with many more cases than `npm test` runs.
//
//   npm run fuzz                                   2,000 content cases, 20,000 requests, then 300 stale-output steps
//   npm run fuzz -- --content 500 --requests 5000 --seed 42
//   npm run fuzz -- --content 2000 --keep-going    run every case and list every distinct problem
//   npm run fuzz -- --only content                 (or --only requests, --only stale)
//   npm run fuzz -- --only stale --stale 300 --seed 42   the stale-output sequence
// (tests/integration/build/stale.test.ts)
//
// Options: --content N, --requests N, --seed S (replays a run: the same seed gives the same cases),
// --path P (with --seed: replays one shrunk counterexample of the content fuzz), --keep-going,
// --case-timeout MS (one content check's time limit, default 20000), --stale N (steps of the
// stale-output sequence, default 300), --only content|requests|stale.
// Prints the figures at the end: cases run, time, slowest case. Exits 1 when a fuzz test fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CONTENT_FUZZ_TEST = 'tests/integration/fuzz/content.test.ts';
// ▼ The request fuzz test (site serve under malformed requests; it reads FUZZ_REQUESTS and FUZZ_SEED).
const REQUEST_FUZZ_TEST = 'tests/integration/server/requests.fuzz.test.ts';
const STALE_TEST = 'tests/integration/build/stale.test.ts';
// ▲

const root = path.resolve(import.meta.dirname, '..');
const options = {
  content: '2000',
  requests: '20000',
  stale: '300',
  seed: undefined,
  path: undefined,
  keepGoing: false,
  caseTimeout: undefined,
  only: undefined,
};
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  const value = () => {
    const v = args[++i];
    if (v === undefined) usage(`${arg} needs a value`);
    return v;
  };
  if (arg === '--content') options.content = whole(arg, value());
  else if (arg === '--requests') options.requests = whole(arg, value());
  else if (arg === '--stale') options.stale = whole(arg, value());
  else if (arg === '--seed') options.seed = integer(arg, value());
  else if (arg === '--path') options.path = value();
  else if (arg === '--case-timeout') options.caseTimeout = whole(arg, value());
  else if (arg === '--keep-going') options.keepGoing = true;
  else if (arg === '--only') {
    options.only = value();
    if (!['content', 'requests', 'stale'].includes(options.only)) usage('--only takes content, requests or stale');
  } else if (arg === '--help' || arg === '-h') usage();
  else usage(`unknown option ${arg}`);
}

function usage(problem) {
  if (problem) console.error(`fuzz: ${problem}`);
  console.error(
    'usage: npm run fuzz -- [--content N] [--requests N] [--seed S] [--path P] [--keep-going] [--case-timeout MS] [--stale N] [--only content|requests|stale]',
  );
  process.exit(problem ? 2 : 0);
}
function whole(name, v) {
  if (!/^\d+$/.test(v)) usage(`${name} must be a whole number`);
  return v;
}
function integer(name, v) {
  if (!/^-?\d+$/.test(v)) usage(`${name} must be an integer`);
  return v;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'site-fuzz-report-'));
const results = [];

/** Runs one vitest file with the environment given; returns its exit status and wall time. */
function runVitest(title, file, env) {
  console.log(`\n▶ ${title}`);
  const started = performance.now();
  const result = spawnSync('npx', ['vitest', 'run', file], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { status: result.status ?? 1, ms: performance.now() - started };
}

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const seedEnv = options.seed !== undefined ? { FUZZ_SEED: options.seed } : {};

if (options.only === undefined || options.only === 'content') {
  const report = path.join(work, 'content.json');
  const run = runVitest(`content fuzz: ${options.content} cases`, CONTENT_FUZZ_TEST, {
    FUZZ_CONTENT: options.content,
    FUZZ_REPORT: report,
    ...seedEnv,
    ...(options.path ? { FUZZ_PATH: options.path } : {}),
    ...(options.keepGoing ? { FUZZ_KEEP_GOING: '1' } : {}),
    ...(options.caseTimeout ? { FUZZ_CASE_TIMEOUT: options.caseTimeout } : {}),
  });
  results.push({ name: 'content', ...run, figures: readReport(report) });
}

if (options.only === undefined || options.only === 'requests') {
  const report = path.join(work, 'requests.json');
  if (!existsSync(path.join(root, REQUEST_FUZZ_TEST))) {
    console.error(
      `\n✗ request fuzz: ${REQUEST_FUZZ_TEST} does not exist; set REQUEST_FUZZ_TEST in scripts/fuzz.mjs to its path`,
    );
    results.push({ name: 'requests', status: 1, ms: 0, missing: true });
  } else {
    const run = runVitest(`request fuzz: ${options.requests} requests`, REQUEST_FUZZ_TEST, {
      FUZZ_REQUESTS: options.requests,
      FUZZ_REPORT: report,
      ...seedEnv,
    });
    results.push({ name: 'requests', ...run, figures: readReport(report) });
  }
}

if (options.only === undefined || options.only === 'stale') {
  // The seed of a run is printed in the test's name, and replays it.
  const run = runVitest(`stale output: ${options.stale} seeded steps in both modes`, STALE_TEST, {
    STALE_STEPS: options.stale,
    ...(options.seed !== undefined ? { STALE_SEED: options.seed } : {}),
  });
  results.push({ name: 'stale', ...run });
}

rmSync(work, { recursive: true, force: true });

console.log('\n── fuzz figures ──');
for (const r of results) {
  const verdict = r.missing ? 'NOT RUN (file missing)' : r.status === 0 ? 'passed' : 'FAILED';
  const f = r.figures;
  if (r.name === 'content' && f) {
    const random = f.cases - (f.fixedCases ?? 0);
    console.log(
      `content:  ${verdict}; ${random} random cases (+${f.fixedCases ?? 0} fixed) in ${(f.totalMs / 1000).toFixed(1)} s, ${random + (f.fixedCases ?? 0) ? Math.round(f.totalMs / f.cases) : 0} ms a case (set-up ${(f.setupMs / 1000).toFixed(1)} s; vitest run ${(r.ms / 1000).toFixed(1)} s), ${f.failedCases} failing`,
    );
    if (f.slowest)
      console.log(
        `          slowest case ${f.slowest.ms} ms${f.slowest.timedOut ? ' (timed out)' : ''}: ${f.slowest.damage}`,
      );
    for (const p of f.problems ?? []) console.log(`          ${p.count} × ${p.group}\n              e.g. ${p.example}`);
  } else if (f) {
    // The request fuzz test's own figures, whatever it chose to write.
    const cases = f.cases ?? f.requests;
    const ms = f.totalMs ?? f.ms;
    console.log(
      `${`${r.name}:`.padEnd(10)}${verdict}; ${cases ?? '?'} cases${ms !== undefined ? ` in ${(ms / 1000).toFixed(1)} s` : ''} (vitest run ${(r.ms / 1000).toFixed(1)} s)`,
    );
    if (f.slowest)
      console.log(`          slowest: ${typeof f.slowest === 'string' ? f.slowest : JSON.stringify(f.slowest)}`);
  } else {
    console.log(
      `${`${r.name}:`.padEnd(10)}${verdict}; vitest run ${(r.ms / 1000).toFixed(1)} s${r.missing ? '' : ' (no figures written: see its output above)'}`,
    );
  }
}
process.exit(results.some((r) => r.status !== 0) ? 1 : 0);
