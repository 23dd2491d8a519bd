// @clock any-moment — it makes its own releases through the control API; no demo release is read
/**
 * A revised previous, end to end in demo mode: the simulator prints a watched release with the
 * previous period's figure revised (`revised`, as the service publishes it), its webhook
 * reaches the app's loopback receiver and the one apply path. The app keeps the figure it
 * was revised from; with "previous print revised" on in the rules the revision is told in
 * exactly one notification, with it off in none (the print alerts all the same).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ALERT_RULES, type NativeNotification } from '../../../src/shared/domain.js';
import type { AppService } from '../../../src/main/service.js';
import { startDemoService } from './harness.js';
import { createHighRelease } from '../../support/releases.js';

describe('revisions of the previous print', () => {
  let service: AppService;
  let simUrl: string;
  const notifications: NativeNotification[] = [];
  const patch = async (id: string, body: unknown) => {
    const res = await fetch(`${simUrl}/_sim/event-dates/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`PATCH ${id}: ${res.status} ${await res.text()}`);
  };
  const cached = async (id: string) =>
    (
      await service.api.listEventDates({
        from: new Date(Date.now() - 3_600_000).toISOString(),
        to: new Date(Date.now() + 3_600_000).toISOString(),
      })
    ).find((r) => r.id === id);
  const rulesWith = async (revised: boolean, watched: string) =>
    service.api.setAlertRules({
      ...DEFAULT_ALERT_RULES,
      watchedEventIds: [watched],
      // the release is HIGH: only the watch makes it alert (the test's events only)
      minVolatility: 'HIGH',
      countries: ['CH'],
      changes: { ...DEFAULT_ALERT_RULES.changes, revised },
      reminderMinutes: 0,
    });
  /** Prints a watched release with a revised previous; the notifications it made. */
  const printRevised = async (name: string, revisedRule: boolean) => {
    const ed = await createHighRelease(simUrl, 2 * 60_000, { name, consensus: 150, previous: 119 });
    await rulesWith(revisedRule, ed.eventId);
    await vi.waitFor(async () => expect(await cached(ed.id)).toBeDefined(), { timeout: 10_000 });
    await patch(ed.id, { actual: 175, revised: 143 });
    await vi.waitFor(
      () => expect(notifications.filter((n) => n.body.includes('175'))).toHaveLength(1),
      { timeout: 10_000 },
    );
    // one alert row for the print: no second notification can follow it
    await vi.waitFor(async () => {
      const alerts = await service.api.listAlerts({ limit: 100 });
      expect(alerts.filter((a) => a.title.includes(name))).toHaveLength(1);
    });
    const row = await cached(ed.id);
    const mine = notifications.filter((n) => n.title.includes(name) || n.body.includes(name));
    notifications.length = 0;
    return { row, mine };
  };

  beforeAll(async () => {
    service = await startDemoService('rev', notifications);
    simUrl = service.simulatorUrl as string;
  });
  afterAll(() => service?.stop());

  it('rule on: the print is one notification that names the revision, and the old figure is kept', async () => {
    const { row, mine } = await printRevised('Probe Payrolls On', true);
    expect(row).toMatchObject({ actual: 175, previous: 119, revised: 143 });
    expect(mine).toHaveLength(1);
    expect(mine[0]?.title).toBe('US Probe Payrolls On · previous revised');
    // the test's own event is a plain index (no unit): printed to one decimal, as a PMI is
    expect(mine[0]?.body).toContain('prev 143.0, revised from 119.0');
    const revisions = (await service.api.listAlerts({ limit: 100 })).filter(
      (a) => a.title.includes('Probe Payrolls On') && /revised/.test(a.title),
    );
    expect(revisions).toHaveLength(1);
  });

  it('rule off (the default): the print alerts, the revision does not', async () => {
    expect(DEFAULT_ALERT_RULES.changes.revised).toBe(false);
    const { row, mine } = await printRevised('Probe Payrolls Off', false);
    expect(row).toMatchObject({ actual: 175, previous: 119, revised: 143 });
    expect(mine).toHaveLength(1);
    expect(mine[0]?.title).toBe('US Probe Payrolls Off');
    const revisions = (await service.api.listAlerts({ limit: 100 })).filter(
      (a) => a.title.includes('Probe Payrolls Off') && /revised/.test(a.title),
    );
    expect(revisions).toHaveLength(0);
  });

  it('a revision published after the print alerts alone, once, only with the rule on', async () => {
    const ed = await createHighRelease(simUrl, 2 * 60_000, {
      name: 'Probe Claims Later',
      consensus: 220,
      previous: 210,
    });
    await rulesWith(true, ed.eventId);
    await vi.waitFor(async () => expect(await cached(ed.id)).toBeDefined(), { timeout: 10_000 });
    await patch(ed.id, { actual: 230 });
    await vi.waitFor(() => expect(notifications).toHaveLength(1), { timeout: 10_000 });
    await patch(ed.id, { revised: 214 });
    const revisedAlerts = async () =>
      (await service.api.listAlerts({ limit: 100 })).filter((a) => a.kind === 'revised');
    await vi.waitFor(async () => expect(await revisedAlerts()).toHaveLength(1), {
      timeout: 10_000,
    });
    await vi.waitFor(() => expect(notifications).toHaveLength(2), { timeout: 10_000 });
    expect(notifications[1]).toMatchObject({
      title: 'US Probe Claims Later revised',
      body: 'Previous now 214.0 (was 210.0)',
    });

    await rulesWith(false, ed.eventId);
    await patch(ed.id, { revised: 216 });
    await vi.waitFor(async () => expect((await cached(ed.id))?.revised).toBe(216), {
      timeout: 10_000,
    });
    expect(await revisedAlerts()).toHaveLength(1);
    expect(notifications).toHaveLength(2);
  });
});
