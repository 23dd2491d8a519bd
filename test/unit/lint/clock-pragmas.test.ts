/**
 * The wall-clock demo schedule is an explicit opt-in. A test file that reads what the demo
 * holds at the date it runs — the app or the simulator in demo mode, the generated schedule,
 * the simulator CLI's autoplay — says in its header which clock it runs on
 * (`// @clock any-day` or `// @clock 2026-12-02T14:05:00Z`, see scripts/clock.mjs); the
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

/** A `startSimulator({...})` call without `autoplay: false` prints the schedule live. */
function autoplayingSimulator(text: string): boolean {
  for (const m of text.matchAll(/startSimulator\(/g)) {
    let depth = 0;
    let i = (m.index ?? 0) + 'startSimulator'.length;
    const start = i;
    for (; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) break;
    }
    if (!/autoplay:\s*false/.test(text.slice(start, i))) return true;
  }
  return false;
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
  const testFiles = files.filter(isTestFile);

  it('finds the schedule readers (the check is not vacuous)', () => {
    expect(helpers.has('startE2E')).toBe(true);
    expect(helpers.has('spawnSimulator')).toBe(true);
    expect(testFiles.length).toBeGreaterThan(100);
  });

  it('every such file has an @clock pragma, and every pragma is valid', () => {
    const missing: string[] = [];
    for (const f of testFiles) {
      if (f === import.meta.filename) continue;
      const text = readFileSync(f, 'utf8');
      const why = reasons(text);
      for (const [name, where] of helpers)
        if (new RegExp(`\\b${name}\\(`).test(text)) why.push(where);
      const pragma = clockPragma(f) as string | null; // throws on a malformed one
      if (why.length > 0 && pragma === null) missing.push(`${relative(root, f)} reads ${why[0]}`);
    }
    expect(
      missing,
      'add `// @clock any-day` (it passes on any date: CI runs it on the clock matrix) or ' +
        '`// @clock 2026-12-02T14:05:00Z` (pinned) to the header, or make the releases the ' +
        'test needs (test/support/releases.ts)',
    ).toEqual([]);
  });

  it('rejects a malformed pragma with the fix', () => {
    const dir = dirname(import.meta.filename);
    expect(() => clockPragma(join(dir, 'fixtures', 'bad-clock-pragma.ts'))).toThrow(
      /must be "any-day" or a UTC moment/,
    );
  });
});
