/**
 * /metrics on prom-client: each relay counts in its own registry (several relays share one
 * process in tests, and a desk may embed more than one), nothing lands in prom-client's
 * global registry, and every metric keeps the name, type and labels docs/relay.md lists.
 */
import { register } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RunningRelay } from '../../../src/relay/server.js';
import { SECRET, TOKEN, post, tempDir } from './helpers.js';

const relays: RunningRelay[] = [];
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});

async function start(): Promise<RunningRelay> {
  const r = await startRelay({ dataDir: tempDir(), secret: SECRET, token: TOKEN });
  relays.push(r);
  return r;
}

const types = (text: string) =>
  Object.fromEntries([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));

describe('the relay metrics', () => {
  it('are counted per relay, in no global registry', async () => {
    const [a, b] = [await start(), await start()];
    for (let n = 0; n < 3; n++) expect((await post(a.webhookUrl, '{"type":"t"}')).status).toBe(204);
    expect((await post(b.webhookUrl, '{"type":"t"}')).status).toBe(204);
    expect((await post(b.webhookUrl, 'not json')).status).toBe(400);
    const [ma, mb] = [await a.metrics(), await b.metrics()];
    expect(ma).toMatch(/^macrobell_relay_ingested_total 3$/m);
    expect(ma).toMatch(/^macrobell_relay_rejected_total 0$/m);
    expect(ma).toMatch(/^macrobell_relay_log_rows 3$/m);
    expect(mb).toMatch(/^macrobell_relay_ingested_total 1$/m);
    expect(mb).toMatch(/^macrobell_relay_rejected_total 1$/m);
    // One commit-latency observation per durable batch, in this relay's histogram only.
    expect(Number(/^macrobell_relay_commit_latency_seconds_count (\d+)$/m.exec(mb)?.[1])).toBe(1);
    expect(await register.metrics()).toBe('\n');
  });

  it('keep the documented names and types', async () => {
    const text = await (await start()).metrics();
    expect(types(text)).toEqual({
      macrobell_relay_ingested_total: 'counter',
      macrobell_relay_rejected_total: 'counter',
      macrobell_relay_hooks_unknown_secret_total: 'counter',
      macrobell_relay_store_failures_total: 'counter',
      macrobell_relay_body_bytes_in_flight: 'gauge',
      macrobell_relay_store_up: 'gauge',
      macrobell_relay_streamed_total: 'counter',
      macrobell_relay_slow_disconnects_total: 'counter',
      macrobell_relay_store_cut_off_disconnects_total: 'counter',
      macrobell_relay_fanout_rounds_total: 'counter',
      macrobell_relay_connected_clients: 'gauge',
      macrobell_relay_commit_latency_seconds: 'histogram',
      macrobell_relay_log_rows: 'gauge',
      macrobell_relay_log_bytes: 'gauge',
      macrobell_relay_log_stats_stale: 'gauge',
      macrobell_relay_desktops_connected: 'gauge',
      macrobell_relay_desktops_connected_stale: 'gauge',
      macrobell_relay_applied_lag_seconds: 'histogram',
      macrobell_relay_desk_alerts_total: 'counter',
      macrobell_relay_missed_windows_total: 'counter',
      macrobell_relay_desk_alert_post_failures_total: 'counter',
      macrobell_relay_desk_alert_checks_total: 'counter',
      macrobell_relay_replays_total: 'counter',
      macrobell_relay_replayed_events_total: 'counter',
    });
    expect(text).toMatch(/^macrobell_relay_store_up\{backend="sqlite"\} 1$/m);
    expect(text).toMatch(/^macrobell_relay_commit_latency_seconds_bucket\{le="0.00025"\} 0$/m);
    expect(text).toMatch(/^macrobell_relay_applied_lag_seconds_bucket\{le="\+Inf"\} 0$/m);
    expect(text).toMatch(
      /^macrobell_relay_desk_alerts_total\{kind="would_miss",phase="recovery"\} 0$/m,
    );
  });
});
