// @clock any-day — a fast demo plays the week around today; it passes whatever the date
/**
 * A fast demo keeps one clock (issue #36, item 7): `--speed 600` used to run a virtual
 * clock that printed Monday's releases on a real Saturday, and receipts read "Applied by
 * the app −45 h 19 min". Now the clock stays real and the upcoming releases come sooner:
 * the time the calendar shows for a release is the time it prints, and a receipt's delay
 * is small and never negative. Through the simulator's CLI flag and the app core in demo
 * mode with the speed `npm run web -- --demo-speed` passes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EventDate } from '../../../src/shared/domain.js';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { waitFor } from '../../support/wait.js';
import { nodeArgs } from '../../support/spawn-cli.js';

const root = resolve(import.meta.dirname, '../../..');
const DAY = 86_400_000;
/**
 * The fastest the CLI takes: the week's two weeks ahead in about two minutes, and the
 * first print of a weekend (33 h away on a Saturday) within 12 s — the clock matrix runs
 * this file on such days.
 */
const SPEED = 10_000;
/** The longest real gap between two prints (a holiday weekend), compressed, with slack. */
const FIRST_PRINT_MS = (3 * DAY) / SPEED + 30_000;

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** A release that prints a value (not a speech, not an all-day holiday). */
const printsAValue = (ed: EventDate) => !ed.isSpeech && !ed.isAllDay;

describe('a fast demo through the simulator CLI (--speed)', () => {
  it('shows each upcoming release at the real time it prints', async () => {
    // node itself (the CLI's bundle, or its sources with tsx's loader), not the tsx CLI: that is a parent process which, once
    // killed, left the simulator running (orphaned) after the test
    const child = spawn(
      process.execPath,
      [...nodeArgs('src/simulator/cli.ts'), '--port', '0', '--seed', 'pace', '--speed', `${SPEED}`],
      { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
    );
    children.push(child);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const url = await waitFor(
      () => /^simulator listening on (\S+)$/m.exec(out)?.[1],
      'the listening line',
      25_000,
    );
    // the simulator re-timed its releases when it started, before this line: a slow start
    // (a cold tsx cache in a fresh clone) does not count against the bound below
    const listeningAt = Date.now();
    const schedule = async () =>
      (await (await fetch(`${url}/_sim/event-dates`)).json()) as EventDate[];

    const state = (await (await fetch(`${url}/_sim/state`)).json()) as Record<string, unknown>;
    expect(state).toMatchObject({ speed: 1, pace: SPEED });
    // the simulator's "now" is the real one
    expect(Math.abs(Date.parse(state.now as string) - Date.now())).toBeLessThan(5_000);

    const now = Date.now();
    const upcoming = (await schedule()).filter(
      (ed) => Date.parse(ed.dateUtc) > now && !ed.isAllDay,
    );
    expect(upcoming.length).toBeGreaterThan(100);
    // the two weeks ahead come within 14 d / SPEED (about 4 minutes) of the start
    for (const ed of upcoming)
      expect(Date.parse(ed.dateUtc)).toBeLessThanOrEqual(listeningAt + (14 * DAY) / SPEED + 5_000);

    const next = upcoming.find(printsAValue)!;
    const printed = await waitFor(
      async () => (await schedule()).find((ed) => ed.id === next.id && ed.actual !== null),
      `${next.name} to print at ${next.dateUtc}`,
      Date.parse(next.dateUtc) - Date.now() + 30_000,
    );
    // it printed at the time the calendar showed, and the calendar still shows that time
    expect(printed.dateUtc).toBe(next.dateUtc);
    const stampedLate = printed.lastUpdated * 1000 - Date.parse(next.dateUtc);
    expect(stampedLate).toBeGreaterThanOrEqual(0);
    expect(stampedLate).toBeLessThan(5_000);
    child.kill('SIGTERM');
  }, 120_000);
});

describe('a fast demo in the app core (npm run web -- --demo-speed)', () => {
  let service: AppService;
  afterAll(() => service?.stop());

  it('receipts a print a few seconds at most after the time its calendar row shows', async () => {
    service = await createAppService({
      dataDir: mkdtempSync(join(tmpdir(), 'mb-pace-')),
      mode: 'demo',
      secretStore: new MemorySecretStore(),
      demo: { seed: 3, autoplay: true, speed: SPEED },
      logFile: null,
      logLevel: 'silent',
    });
    await service.start();
    // every print alerts, so the first one of the fast week is the one checked
    const rules = await service.api.getAlertRules();
    await service.api.setAlertRules({ ...rules, minVolatility: 'LOW' });

    const alert = await waitFor(
      async () =>
        (await service.api.listAlerts({ limit: 50 })).find(
          (a) => a.kind === 'released' && a.receipt !== null,
        ),
      'the first print of the fast week',
      FIRST_PRINT_MS,
    );
    const receipt = alert.receipt!;
    const target = alert.target as { eventDateId: string };
    const rows = await service.api.listEventDates({
      from: new Date(Date.now() - DAY).toISOString(),
      to: new Date(Date.now() + DAY).toISOString(),
    });
    const row = rows.find((ed) => ed.id === target.eventDateId)!;
    expect(row, 'the alerted release in the calendar').toBeDefined();
    // the calendar's time for the release is the time the receipt says it was scheduled…
    expect(receipt.scheduledAt).toBe(Date.parse(row.dateUtc));
    // …and the app applied it just after, not hours before (a virtual clock's "−45 h")
    const delay = receipt.appliedAt - Date.parse(row.dateUtc);
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThan(10_000);
    expect(receipt.printAt).not.toBeNull();
    expect(receipt.appliedAt - receipt.printAt!).toBeGreaterThanOrEqual(0);
    // the calendar's next release is ahead of the app's clock, soon (a countdown in seconds)
    const next = await service.api.nextRelease();
    if (next) {
      expect(Date.parse(next.dateUtc)).toBeGreaterThan(Date.now() - 1_000);
      expect(Date.parse(next.dateUtc) - Date.now()).toBeLessThan((14 * DAY) / SPEED + 5_000);
    }
  }, 120_000);
});
