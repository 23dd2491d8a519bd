// The clock tests run on. A test file that reads the wall-clock date (the demo's schedule,
// "today" in the calendar) says so in its header, and the runner honours it:
//
//   // @clock any-day                 reads what the day holds (the demo's schedule, "today")
//                                     and passes whatever the date: run today, and on every
//                                     moment of the clock matrix (`npm run test:clock-matrix`)
//   // @clock any-moment              reads the clock but not the day's schedule (it makes the
//                                     releases it needs): run today, and on one moment of the
//                                     matrix (such files are dealt over the moments in turn)
//   // @clock 2026-12-02T14:05:00Z     always runs with the clock set to that moment
//
// A file with no pragma must not read the date (test/unit/lint/clock-pragmas.test.ts).
// The clock is moved with libfaketime by a constant offset, so every process a test starts
// (the app, the simulator, relays, Chromium) agrees on the time and it runs at its real rate.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The hard days: weekends, holidays, daylight-saving switches, a year end, a week start. */
export const MOMENTS = [
  { name: 'a Saturday', at: '2026-12-05T10:00:00Z' },
  { name: 'a Sunday evening (Asia opens)', at: '2026-12-06T21:30:00Z' },
  { name: 'US Thanksgiving', at: '2026-11-26T15:00:00Z' },
  { name: '25 December', at: '2026-12-25T12:00:00Z' },
  { name: 'US daylight saving starts', at: '2027-03-14T06:50:00Z' },
  { name: 'EU summer time starts', at: '2027-03-28T00:50:00Z' },
  { name: 'EU summer time ends', at: '2027-10-31T00:50:00Z' },
  { name: 'US daylight saving ends', at: '2027-11-07T05:50:00Z' },
  { name: '31 December, 23:55 UTC', at: '2026-12-31T23:55:00Z' },
  { name: 'a Monday, 00:05 UTC', at: '2026-11-30T00:05:00Z' },
];

const PRAGMA = /^\s*(?:\/\/|\/?\*+)\s*@clock\s+(\S+)/m;

/** 'any-day', 'any-moment', an ISO moment, or null (the file does not read the date). */
export function clockPragma(file) {
  const head = readFileSync(file, 'utf8').split('\n').slice(0, 40).join('\n');
  const m = PRAGMA.exec(head);
  if (!m) return null;
  const value = m[1];
  if (value === 'any-day' || value === 'any-moment') return value;
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?Z$/.test(value) && !Number.isNaN(Date.parse(value)))
    return value;
  throw new Error(
    `${file}: "@clock ${value}" must be "any-day", "any-moment" or a UTC moment like 2026-12-02T14:05:00Z`,
  );
}

/** Fails with the install line when libfaketime's wrapper is missing. */
export function requireFaketime() {
  const r = spawnSync('sh', ['-c', 'command -v faketime'], { encoding: 'utf8' });
  if (r.status === 0 && r.stdout.trim()) return;
  throw new Error(
    'Tests pinned to a date need faketime: install it with `sudo apt-get install -y faketime`.',
  );
}

/**
 * The command prefix that runs `argv` with the clock at `at`: a constant offset from the real
 * time, computed now (an absolute "@date" would restart at that date in each new process).
 * The monotonic clock moves by the same offset: Chromium hangs at start when only the wall
 * clock is faked. TZ=UTC so that every process reads the offset's dates alike.
 */
export function atMoment(at, argv) {
  const offset = Math.round((Date.parse(at) - Date.now()) / 1000);
  return {
    command: 'faketime',
    args: ['-f', `${offset >= 0 ? '+' : ''}${offset}`, ...argv],
    env: { TZ: 'UTC', MACROBELL_TEST_CLOCK: at },
  };
}
