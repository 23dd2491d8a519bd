/**
 * The wall-clock demo schedule is an explicit opt-in. A test file that reads what the demo
 * holds at the date it runs — the app or the simulator in demo mode, the generated schedule,
 * the simulator CLI's autoplay — says in its header which clock it runs on
 * (`// @clock any-day`, `any-moment` or `2026-12-02T14:05:00Z`, see scripts/clock.mjs); the
 * runner pins it or puts it in the clock matrix. Files found by what they call, not by a list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module of the test runner, without types
import { clockPragma } from '../../../scripts/clock.mjs';

const root = resolve(import.meta.dirname, '../../..');
const testDir = join(root, 'test');

/** What in a file's own text reads the demo schedule at the wall-clock date. */
const READS_SCHEDULE: [RegExp, string][] = [
  [/mode:[^\n]*'demo'|\bdemo:\s*\{\s*seed/, 'the app in demo mode (the demo week around today)'],
  [/\.state\.eventDates/, 'the simulator’s generated schedule'],
  [/'GET',\s*'\/_sim\/event-dates'|\/_sim\/event-dates`\)/, 'the schedule through the control API'],
  [/startDemoMarket\(/, 'the demo market'],
];

/** The arguments of every `startSimulator(...)` call in `text`. */
function simulatorCalls(text: string): string[] {
  return [...text.matchAll(/startSimulator\(/g)].map((m) => {
    let depth = 0;
    let i = (m.index ?? 0) + 'startSimulator'.length;
    const start = i;
    for (; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) break;
    }
    return text.slice(start, i);
  });
}

/** A `startSimulator({...})` call without `autoplay: false` prints the schedule live. */
const autoplayingSimulator = (text: string) =>
  simulatorCalls(text).some((args) => !/autoplay:\s*false/.test(args));

/**
 * A simulator whose scenario starts at the wall-clock now (no `now:` pin): its schedule,
 * autoplay or not, is the demo week around the date the test runs.
 */
const simulatorAtToday = (text: string) =>
  simulatorCalls(text).some((args) => !/\bnow:/.test(args));

/** Reads of the calendar through the app's API: the calendar the core synced from its simulator. */
const APP_READS_CALENDAR =
  /\.api\.(listEventDates|nextRelease|getEventDetail)\(|\bupcomingReleases\(/;

/** The simulators `control(sim, 'GET', '/event-dates')` reads the generated calendar of. */
const controlReads = (text: string) =>
  [...text.matchAll(/control(?:<[^(]*?>)?\(\s*(\w+),\s*'GET',\s*'\/event-dates'/g)].map(
    (m) => m[1] as string,
  );

/** Names bound to a simulator started today: `x = await startSimulator({…})` unpinned, or a helper's. */
function todaysSimulators(text: string, helpers: string[]): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/(\w+)\s*=\s*(?:await\s+)?(\w+)\(/g)) {
    const [, name, fn] = m as unknown as [string, string, string];
    const args = simulatorCalls(text.slice(m.index + m[0].length - fn.length - 1))[0];
    if (fn === 'startSimulator' && args !== undefined && !/\bnow:/.test(args)) names.push(name);
    else if (helpers.includes(fn)) names.push(name);
  }
  return names;
}

/** The simulator CLI prints the schedule live unless its flags freeze the clock (`--speed 0`). */
function autoplayingCli(text: string): boolean {
  return [...text.matchAll(/'src\/simulator\/cli\.ts'/g)].some(
    (m) => !/'--speed',\s*'0'/.test(text.slice(m.index, (m.index ?? 0) + 400)),
  );
}

function reasons(text: string): string[] {
  const found = READS_SCHEDULE.filter(([re]) => re.test(text)).map(([, why]) => why);
  if (autoplayingSimulator(text)) found.push('a simulator with autoplay on');
  if (autoplayingCli(text))
    found.push('the simulator CLI, whose autoplay prints the schedule live');
  return found;
}

/** Helper functions (exported by test modules) that start a simulator at today's date. */
function simulatorAtTodayHelpers(): string[] {
  const out: string[] = [];
  for (const f of files.filter((x) => !isTestFile(x) && !x.includes('/lint/'))) {
    const text = readFileSync(f, 'utf8');
    const starts = [...text.matchAll(/^export (?:async )?function (\w+)/gm)];
    starts.forEach((m, k) => {
      const body = text.slice(m.index, starts[k + 1]?.index ?? text.length);
      if (simulatorAtToday(body)) out.push(m[1] as string);
    });
  }
  return out;
}

/**
 * A file that reads the calendar of a simulator started today (by itself or a helper):
 * through the app's API, or the simulator's control API on that simulator.
 */
function readsTodaysSimulator(text: string, helpers: string[]): string | null {
  const helper = helpers.find((name) => new RegExp(`\\b${name}\\(`).test(text));
  const via = helper ? ` (${helper}())` : '';
  if (APP_READS_CALENDAR.test(text) && (simulatorAtToday(text) || helper))
    return `the calendar of a simulator started at today's date${via}, through the app's API`;
  const today = todaysSimulators(text, helpers);
  if (controlReads(text).some((sim) => today.includes(sim)))
    return `the calendar of a simulator started at today's date${via}, through its control API`;
  return null;
}

const files = readdirSync(testDir, { recursive: true })
  .map((f) => join(testDir, String(f)))
  .filter((f) => /\.(ts|tsx)$/.test(f));
const isTestFile = (f: string) => /\.(test\.tsx?|e2e\.ts)$/.test(f);

/** Helper functions (exported by test modules) whose body reads the schedule. */
function scheduleHelpers(): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files.filter((x) => !isTestFile(x) && !x.includes('/lint/'))) {
    const text = readFileSync(f, 'utf8');
    const starts = [...text.matchAll(/^export (?:async )?function (\w+)/gm)];
    starts.forEach((m, k) => {
      const body = text.slice(m.index, starts[k + 1]?.index ?? text.length);
      const why = reasons(body);
      if (why.length > 0) out.set(m[1] as string, `${m[1]}() in ${relative(root, f)}: ${why[0]}`);
    });
  }
  return out;
}

describe('tests that read the demo schedule say which clock they run on', () => {
  const helpers = scheduleHelpers();
  const simulatorHelpers = simulatorAtTodayHelpers();
  const testFiles = files.filter(isTestFile);

  it('finds the schedule readers (the check is not vacuous)', () => {
    expect(helpers.has('startE2E')).toBe(true);
    expect(helpers.has('spawnSimulator')).toBe(true);
    expect(simulatorHelpers).toContain('startCore');
    expect(testFiles.length).toBeGreaterThan(100);
  });

  it('catches a read through the app API of a non-autoplay simulator started today', () => {
    const throughCore = `const h = await startCore();\nawait h.service.api.listEventDates(w);`;
    expect(readsTodaysSimulator(throughCore, simulatorHelpers)).toMatch(/startCore\(\)/);
    const direct = `const sim = await startSimulator({ autoplay: false });\ncontrol<Ed[]>(sim, 'GET', '/event-dates');`;
    expect(readsTodaysSimulator(direct, simulatorHelpers)).toMatch(/through its control API/);
    // another simulator of the file, pinned, is the one read
    const other = `const real = await startSimulator({});\nconst sim = await startSimulator({ now: T0 });\ncontrol(sim, 'GET', '/event-dates');\ncontrol(real, 'GET', '/state');`;
    expect(readsTodaysSimulator(other, simulatorHelpers)).toBeNull();
    // pinned (now: T0), or never read: not the wall-clock schedule
    const pinned = `startSimulator({ autoplay: false, now: T0 });\napi.listEventDates(w);`;
    expect(readsTodaysSimulator(pinned, simulatorHelpers)).toBeNull();
    expect(readsTodaysSimulator('await startCore();', simulatorHelpers)).toBeNull();
  });

  it('every such file has an @clock pragma, and every pragma is valid', () => {
    const missing: string[] = [];
    for (const f of testFiles) {
      if (f === import.meta.filename) continue;
      const text = readFileSync(f, 'utf8');
      const why = reasons(text);
      const simulator = readsTodaysSimulator(text, simulatorHelpers);
      if (simulator) why.push(simulator);
      for (const [name, where] of helpers)
        if (new RegExp(`\\b${name}\\(`).test(text)) why.push(where);
      const pragma = clockPragma(f) as string | null; // throws on a malformed one
      if (why.length > 0 && pragma === null) missing.push(`${relative(root, f)} reads ${why[0]}`);
    }
    expect(
      missing,
      'add `// @clock any-day` (it reads what the day holds and passes on any date: CI runs ' +
        'it on every moment of the clock matrix), `// @clock any-moment` (it reads the clock, ' +
        'not the schedule: one moment of the matrix) or ' +
        '`// @clock 2026-12-02T14:05:00Z` (pinned) to the header, or make the releases the ' +
        'test needs (test/support/releases.ts)',
    ).toEqual([]);
  });

  it('rejects a malformed pragma with the fix', () => {
    const dir = dirname(import.meta.filename);
    expect(() => clockPragma(join(dir, 'fixtures', 'bad-clock-pragma.ts'))).toThrow(
      /must be "any-day", "any-moment" or a UTC moment/,
    );
  });
});
