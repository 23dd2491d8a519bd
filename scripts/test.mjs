// `npm test`: every test — vitest unit + integration, then end-to-end in Chromium — inside a
// private D-Bus session with a throw-away, unlocked gnome-keyring, so the real-keychain test
// runs without touching the user's own keyring. Missing prerequisites fail with the fix.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { ensureApprovedScripts } from './approved-scripts.mjs';
import { MOMENTS, atMoment, clockPragma, requireFaketime } from './clock.mjs';
import { laneCount, runInLanes } from './test-lanes.mjs';
import { webBuildArgv } from './web-build.mjs';
import { buildCliBundles } from './cli-bundles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const which = (cmd) =>
  spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim();

if (!process.env.MACROBELL_TEST_SESSION) {
  // better-sqlite3 and keytar built (once per install: .npmrc runs no install script).
  if (ensureApprovedScripts() !== 0) process.exit(1);
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const missing = [];
  if (!existsSync(chromium)) missing.push(`Chromium (${chromium}) for the end-to-end tests`);
  if (process.platform === 'linux') {
    if (!which('dbus-run-session'))
      missing.push('dbus-run-session (package dbus-x11 / dbus) for the keychain test');
    if (!which('gnome-keyring-daemon'))
      missing.push('gnome-keyring-daemon (package gnome-keyring) for the keychain test');
  }
  if (missing.length > 0) {
    console.error(
      `npm test needs:\n  - ${missing.join('\n  - ')}\nInstall them with:\n  sudo apt-get install -y chromium gnome-keyring dbus-x11 libsecret-1-dev\n(or set CHROMIUM_PATH to another Chromium).`,
    );
    process.exit(1);
  }
  if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS) {
    // Re-run inside a private session bus with a fresh keyring, unlocked with a test password.
    const home = mkdtempSync(join(tmpdir(), 'macrobell-test-keyring-'));
    const inner = `echo -n macrobell-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node scripts/test.mjs ${args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ')}`;
    const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, XDG_DATA_HOME: home, MACROBELL_TEST_SESSION: '1' },
    });
    rmSync(home, { recursive: true, force: true });
    process.exit(r.status ?? 1);
  }
}

// The relay's and simulator's CLIs, built once for the tests that start them (a start
// under tsx costs about four times the CPU: scripts/cli-bundles.mjs); removed at the end.
const cliStarted = Date.now();
const cliDir = await buildCliBundles(root);
process.env.MACROBELL_TEST_CLI_DIR = cliDir;
console.log(`built the relay and simulator CLIs for the tests (${Date.now() - cliStarted} ms)`);
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const reportDir = mkdtempSync(join(tmpdir(), 'macrobell-test-reports-'));
// The tests' temp folders (data folders, Redis and proxy dirs, browser profiles) go in one
// scratch folder, removed at the end, so a run leaves the machine's temp dir as it was.
// World-traversable as /tmp is: the data-owner test runs the relay as another user.
const scratch = mkdtempSync(join(tmpdir(), 'macrobell-test-tmp-'));
chmodSync(scratch, 0o755);
process.env.TMPDIR = scratch;
const removeScratch = () => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(cliDir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    removeScratch();
    process.exit(130);
  });
let runs = 0;
/** Every failed test of every run, one line each, printed again at the end. */
const failures = [];
/** The failed files and tests of one vitest run, from its JSON report. */
const failuresOf = (label, report) => {
  let json;
  try {
    json = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    return [`${label}: failed before writing its report (see its output above)`];
  }
  const firstLine = (text) =>
    stripVTControlCharacters(String(text ?? '')) // vitest's colour codes
      .split('\n')
      .find((l) => l.trim())
      ?.trim()
      .slice(0, 300) ?? '';
  const lines = [];
  for (const file of json.testResults ?? []) {
    const name = file.name?.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      lines.push(`${name} › ${a.fullName}\n      ${firstLine(a.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === 'failed')
      lines.push(`${name}\n      ${firstLine(file.message)}`);
  }
  return lines.length > 0
    ? lines.map((l) => `${label}: ${l}`)
    : [`${label}: failed (exit status), no failed test in its report: see its output above`];
};
/** A vitest invocation (or any node command) on today's clock or under faketime at `at`. */
const job = (label, argv, at = null, weight = 0) => {
  const fullLabel = `${label}${at ? ` — clock at ${at}` : ''}`;
  // vitest also writes a JSON report, so the failures can be listed again at the very end:
  // CI shows the end of a long log, and the first suite's failure scrolls out of it.
  const report = argv[0] === vitest ? join(reportDir, `run-${runs++}.json`) : null;
  if (report)
    argv = [...argv, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const how = at
    ? atMoment(at, [process.execPath, ...argv])
    : { command: process.execPath, args: argv, env: {} };
  return {
    label: fullLabel,
    failureLabel: label + (at ? ` (clock at ${at})` : ''),
    report,
    weight,
    command: how.command,
    args: how.args,
    env: { MACROBELL_TEST_SESSION: '1', ...how.env },
  };
};
const lanes = laneCount();
/**
 * Runs the jobs in lanes (scripts/test-lanes.mjs); returns how many failed. `ended(job,
 * status, seconds)` is told of each, after its line.
 */
const runJobs = async (jobs, ended = () => {}) => {
  let bad = 0;
  await runInLanes(jobs, {
    lanes,
    cwd: root,
    onStart: (j, buffered) => console.log(`\n▶ ${j.label}${buffered ? ' — started' : ''}`),
    onDone: (j, status, seconds) => {
      console.log(`  ${status === 0 ? '✔' : '✘'} ${j.label} (${seconds} s)`);
      ended(j, status, seconds);
      if (status !== 0) {
        bad++;
        failures.push(...failuresOf(j.failureLabel, j.report));
      }
    },
  });
  return bad;
};
/** Runs one job alone, streamed; returns its exit status. */
const run = async (label, argv, at = null) =>
  (await runJobs([job(label, argv, at)])) === 0 ? 0 : 1;
const E2E_CONFIG = ['--config', 'vitest.e2e.config.ts'];
const buildWeb = () =>
  run('building the web UI for the end-to-end tests', webBuildArgv(root, { mode: 'e2e' }));
/** Which runs start first when more wait than there are lanes: unit runs before end-to-end ones. */
const WEIGHT = { unit: 3, e2e: 2 };

// Test files by suite and by the clock their header asks for (scripts/clock.mjs).
const testFiles = (dir, suffix) =>
  readdirSync(join(root, dir), { recursive: true })
    .map((f) => join(dir, String(f)).split('\\').join('/'))
    .filter((f) => suffix.some((s) => f.endsWith(s)))
    .sort();
const suites = [
  {
    name: 'unit and integration tests',
    config: [],
    files: [
      ...testFiles('test/unit', ['.test.ts', '.test.tsx']),
      ...testFiles('test/integration', ['.test.ts']),
    ],
  },
  {
    name: 'end-to-end tests (Chromium)',
    config: E2E_CONFIG,
    files: testFiles('test/e2e', ['.e2e.ts']),
  },
];
for (const suite of suites) {
  suite.pinned = new Map(); // moment → files
  suite.anyDay = [];
  suite.anyMoment = [];
  for (const f of suite.files) {
    const pragma = clockPragma(join(root, f));
    if (pragma === 'any-day') suite.anyDay.push(f);
    else if (pragma === 'any-moment') suite.anyMoment.push(f);
    else if (pragma) suite.pinned.set(pragma, [...(suite.pinned.get(pragma) ?? []), f]);
  }
}
/** A folder given on the command line stands for the suites' test files under it. */
const expandFolders = (paths) =>
  paths.flatMap((p) => {
    if (!existsSync(join(root, p)) || !statSync(join(root, p)).isDirectory()) return [p];
    const dir = relative(root, join(root, p)).split('\\').join('/');
    return suites.flatMap((s) => s.files).filter((f) => dir === '' || f.startsWith(`${dir}/`));
  });

// Tests must leave the work tree as they found it (no tracked file rewritten, nothing new).
const gitStatus = () => {
  const r = spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout : null;
};
const insideGit =
  spawnSync('git', ['rev-parse', '--is-inside-work-tree'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout?.trim() === 'true';
const statusBefore = insideGit ? gitStatus() : null;

let failed = 0;
const atIndex = args.indexOf('--at');
if (args.includes('--clock-matrix')) {
  // Every file that reads what the day holds, on every hard day; each file that reads only
  // the clock on one of them, dealt in turn (its pinned files keep their moment).
  requireFaketime();
  failed += (await buildWeb()) === 0 ? 0 : 1;
  const jobs = [];
  MOMENTS.forEach((m, i) => {
    for (const [k, suite] of suites.entries()) {
      const files = [
        ...suite.anyDay,
        ...suite.anyMoment.filter((_, j) => j % MOMENTS.length === i),
      ];
      if (files.length === 0) continue;
      const weight = k === 0 ? WEIGHT.unit : WEIGHT.e2e;
      jobs.push({
        ...job(
          `${suite.name} that read the date, ${m.name}`,
          [vitest, 'run', ...suite.config, ...files],
          m.at,
          weight,
        ),
        moment: m,
      });
    }
  });
  const byMoment = new Map(MOMENTS.map((m) => [m, { bad: 0, seconds: 0 }]));
  failed += await runJobs(jobs, (j, status, seconds) => {
    const sum = byMoment.get(j.moment);
    sum.seconds += seconds;
    if (status !== 0) sum.bad++;
  });
  const summary = MOMENTS.map((m) => {
    const { bad, seconds } = byMoment.get(m);
    return `  ${bad === 0 ? '✔' : '✘'} ${m.at}  ${m.name}  (${seconds} s of runs)`;
  });
  console.log(`\nclock matrix:\n${summary.join('\n')}`);
} else if (atIndex >= 0) {
  // `npm test -- --at 2026-12-05T10:00:00Z test/e2e/calendar.e2e.ts`: chosen files at a moment.
  requireFaketime();
  const at = args[atIndex + 1] ?? '';
  if (Number.isNaN(Date.parse(at))) {
    console.error('--at needs a moment, e.g. --at 2026-12-05T10:00:00Z');
    process.exit(1);
  }
  const rest = expandFolders(args.filter((_, i) => i !== atIndex && i !== atIndex + 1));
  const e2e = rest.filter((a) => a.endsWith('.e2e.ts'));
  const other = rest.filter((a) => !a.endsWith('.e2e.ts'));
  const jobs = [];
  if (other.length > 0 || e2e.length === 0)
    jobs.push(job('tests', [vitest, 'run', ...other], at, WEIGHT.unit));
  if (e2e.length > 0) {
    failed += (await buildWeb()) === 0 ? 0 : 1;
    jobs.push(job('end-to-end tests', [vitest, 'run', ...E2E_CONFIG, ...e2e], at, WEIGHT.e2e));
  }
  failed += await runJobs(jobs);
} else if (args.length > 0) {
  // `npm test -- <files>`: each file on the clock its header asks for (a pinned file at its
  // moment, the rest today); end-to-end files build the web UI first.
  const chosenFiles = expandFolders(args);
  const jobs = [];
  for (const [e2e, label, config] of [
    [false, 'unit and integration tests', []],
    [true, 'end-to-end tests (Chromium)', E2E_CONFIG],
  ]) {
    const chosen = chosenFiles.filter((a) => a.endsWith('.e2e.ts') === e2e);
    if (chosen.length === 0) continue;
    if (e2e) failed += (await buildWeb()) === 0 ? 0 : 1;
    const byMoment = new Map(); // moment (null: today) → files
    for (const f of chosen) {
      const pragma = existsSync(join(root, f)) ? clockPragma(join(root, f)) : null;
      const at = pragma && !pragma.startsWith('any-') ? pragma : null;
      byMoment.set(at, [...(byMoment.get(at) ?? []), f]);
    }
    for (const [at, group] of byMoment) {
      if (at) requireFaketime();
      const name = at ? `${label} pinned to a moment` : label;
      jobs.push(
        job(name, [vitest, 'run', ...config, ...group], at, e2e ? WEIGHT.e2e : WEIGHT.unit),
      );
    }
  }
  failed += await runJobs(jobs);
} else {
  // Every file: the unit and integration files of today, the files pinned to each moment,
  // the end-to-end files; two vitest runs at a time (scripts/test-lanes.mjs).
  if ([...suites[0].pinned.keys(), ...suites[1].pinned.keys()].length > 0) requireFaketime();
  failed += (await buildWeb()) === 0 ? 0 : 1;
  const jobs = [];
  for (const [i, suite] of suites.entries()) {
    // the unit runs first: the pinned one holds the longest file (the chaos test)
    const weigh = (files) => files.length + (i === 0 ? 1000 : 0);
    const pinnedFiles = [...suite.pinned.values()].flat();
    const exclude = pinnedFiles.flatMap((f) => ['--exclude', f]);
    const today = suite.files.length - pinnedFiles.length;
    jobs.push(
      job(suite.name, [vitest, 'run', ...suite.config, ...exclude], null, weigh(Array(today))),
    );
    for (const [at, files] of suite.pinned)
      jobs.push(
        job(
          `${suite.name} pinned to a moment`,
          [vitest, 'run', ...suite.config, ...files],
          at,
          weigh(files),
        ),
      );
  }
  failed += await runJobs(jobs);
}
if (statusBefore !== null) {
  const statusAfter = gitStatus();
  if (statusAfter !== statusBefore) {
    console.error(
      `\n✘ the tests changed the work tree (git status --porcelain):\nbefore:\n${statusBefore || '  (clean)\n'}after:\n${statusAfter}`,
    );
    failed++;
  }
}
rmSync(reportDir, { recursive: true, force: true });
removeScratch();
if (failures.length > 0)
  console.error(`\nfailed tests:\n${failures.map((f) => `  ✘ ${f}`).join('\n')}`);
console.log(failed === 0 ? '\n✔ all test suites passed' : `\n✘ ${failed} test suite(s) failed`);
process.exit(failed === 0 ? 0 : 1);
