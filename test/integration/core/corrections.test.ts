// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * A corrected print, end to end in demo mode: the simulator's control API changes an actual
 * that has already printed; its webhook (delivered twice) reaches the app's loopback
 * receiver and the one apply path. One correction alert, one notification, whatever the
 * re-deliveries.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventDate, NativeNotification } from '../../../src/shared/domain.js';
import type { AppService } from '../../../src/main/service.js';
import { startDemoService } from './harness.js';

const DAY = 86_400_000;

describe('corrections', () => {
  let service: AppService;
  let simUrl: string;
  const notifications: NativeNotification[] = [];
  const sim = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${simUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    service = await startDemoService('corr', notifications);
    simUrl = service.simulatorUrl as string;
  });
  afterAll(() => service?.stop());

  it('alerts a changed actual once as a correction, and not again for its re-deliveries', async () => {
    const rows = await service.api.listEventDates({
      from: new Date(Date.now()).toISOString(),
      to: new Date(Date.now() + 7 * DAY).toISOString(),
    });
    const nfp = rows.find((d) => d.volatility === 'HIGH' && d.actual === null) as EventDate;
    expect(nfp).toBeDefined();
    const title = `${nfp.countryCode} ${nfp.name}`;
    const reads = async () =>
      (await sim<{ eventDateReads: Record<string, number> }>('GET', '/_sim/state')).eventDateReads[
        nfp.id
      ] ?? 0;
    const readsBefore = await reads();
    await sim('PATCH', `/_sim/event-dates/${nfp.id}`, { actual: 234 });
    await vi.waitFor(() => expect(notifications.map((n) => n.title)).toContain(title), {
      timeout: 10_000,
    });
    // The app confirms the print with a read of the service: a figure changed before that
    // replaces the print's alert in place (forged-notifications.test); after it, a correction.
    await vi.waitFor(async () => expect(await reads()).toBeGreaterThan(readsBefore), {
      timeout: 10_000,
    });

    // every delivery of the correction is sent twice
    await sim('POST', '/_sim/faults', { deliveries: { duplicate: 5 } });
    const before = (await sim<unknown[]>('GET', '/_sim/deliveries')).length;
    await sim('PATCH', `/_sim/event-dates/${nfp.id}`, { actual: 275 });
    const corrections = async () =>
      (await service.api.listAlerts({ limit: 100 })).filter((a) => a.kind === 'corrected');
    await vi.waitFor(async () => expect(await corrections()).toHaveLength(1), { timeout: 10_000 });
    // both copies were delivered and acknowledged (the receiver answers after applying)
    await vi.waitFor(
      async () => {
        const after = (await sim<{ status: number | null }[]>('GET', '/_sim/deliveries')).slice(
          before,
        );
        expect(after.filter((d) => d.status === 204).length).toBeGreaterThanOrEqual(2);
      },
      { timeout: 10_000 },
    );
    const [alert] = await corrections();
    expect(alert?.title).toBe(`${title} corrected`);
    expect(alert?.body).toMatch(/^275.*, was 234/);
    expect(alert?.target).toMatchObject({ type: 'eventDate', eventDateId: nfp.id });
    // notifications closer than the coalescing window wait for it (1.5 s)
    await vi.waitFor(
      () => expect(notifications.filter((n) => n.title === `${title} corrected`)).toHaveLength(1),
      { timeout: 5_000 },
    );
  });
});
