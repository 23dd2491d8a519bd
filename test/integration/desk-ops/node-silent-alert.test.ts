/**
 * A dead node reaches the desk's chat: two relay nodes on one real Redis, a manual clock
 * shared by both, a loopback chat receiver. Node b stops (its last report stays in Redis);
 * 30 s on, node a posts "node-b has not reported" once however often it checks, and once
 * node b is back, "reports again" once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startAlertingNodes } from './alerting-nodes.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

describe('a node that stops reporting', () => {
  it('is posted to the chat once, and its return once', async () => {
    let clock = Date.UTC(2026, 0, 5, 12, 0, 0);
    const { texts, node } = await startAlertingNodes(cleanups, {
      label: 'node-silent',
      now: () => clock,
    });
    const a = await node('node-a');
    const b = await node('node-b');
    await a.checkDeskAlerts();
    await b.checkDeskAlerts();
    expect(texts).toEqual([]);

    await b.close();
    clock += 31_000;
    for (let i = 0; i < 3; i++) await a.checkDeskAlerts();
    expect(texts).toEqual([
      expect.stringMatching(/^:rotating_light: Relay node node-b has not reported for 31 s/),
    ]);

    const b2 = await node('node-b'); // reports at start
    await a.checkDeskAlerts();
    await b2.checkDeskAlerts();
    await a.checkDeskAlerts();
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(':white_check_mark: Relay node node-b reports again.');
  }, 60_000);
});
