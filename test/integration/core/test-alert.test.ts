/**
 * "Send test alert" in the core, on a real service: one HIGH notification through the one
 * delivery path (the event both hosts listen to), nothing recorded in the alert history,
 * and the news-window settings validated at the boundary.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseRequest } from '../../../src/shared/ipc.js';
import { startCore, type CoreHarness } from './harness.js';

describe('Send test alert (core)', () => {
  let core: CoreHarness | null = null;
  afterAll(async () => core?.close());

  it('emits one test notification and records nothing', async () => {
    core = await startCore();
    const before = await core.service.api.listAlerts({});
    const result = await core.service.api.sendTestAlert();
    expect(result).toMatchObject({ outcome: 'in-app', banner: false, checks: [] });
    expect(core.events.notification).toHaveLength(1);
    expect(core.events.notification[0]).toMatchObject({
      title: 'Macrobell test alert',
      volatility: 'HIGH',
      test: true,
      alertIds: [],
    });
    expect(await core.service.api.listAlerts({})).toEqual(before);
  });

  it('saves news-window and squawk settings, and names what is wrong in a bad one', async () => {
    const api = (core as CoreHarness).service.api;
    const s = await api.updateSettings({
      newsWindow: {
        enabled: true,
        minutesBefore: 5,
        minutesAfter: 10,
        impacts: ['HIGH'],
        alerts: true,
      },
      squawk: { prints: 'watched', consensus: true },
    });
    expect(s.newsWindow).toMatchObject({ enabled: true, minutesBefore: 5, minutesAfter: 10 });
    expect(s.squawk).toEqual({ prints: 'watched', consensus: true });
    // the other settings are untouched by a patch without these keys
    expect((await api.updateSettings({ theme: 'dark' })).newsWindow.minutesAfter).toBe(10);
    // the hosts validate every request against the contract before it reaches the core
    const bad = { ...s.newsWindow, minutesBefore: 500 };
    expect(() => parseRequest('updateSettings', { newsWindow: bad })).toThrow(
      /Invalid request to updateSettings:.*newsWindow\.minutesBefore/,
    );
    expect(() =>
      parseRequest('updateSettings', { squawk: { prints: 'loud', consensus: 1 } }),
    ).toThrow(/squawk\.prints/);
  });
});
