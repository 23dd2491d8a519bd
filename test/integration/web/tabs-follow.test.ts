// @clock 2026-12-02T14:05:00Z — the demo week of a Wednesday afternoon (it reads the demo schedule)
/**
 * A second browser tab follows the first (issue #26, defect 10): the real app service in
 * demo mode behind the web host on 127.0.0.1; one "tab" changes the zone, the clock and the
 * alert rules and marks every alert read over HTTP, the other sees each change on its
 * event stream, pushed (it never re-reads). How fast is the benchmark's business, not a
 * timed test's: a busy machine must not fail it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../src/main/secrets/index.js';
import { createAppService, type AppService } from '../../../src/main/service.js';
import { startWebHost, type RunningWebHost } from '../../../src/main/web/host.js';
import type { Settings } from '../../../src/shared/domain.js';
import { WEB_PAGE_KEY_HEADER } from '../../../src/shared/ipc.js';

let service: AppService;
let host: RunningWebHost;
let cookie = '';
let key = '';

beforeAll(async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'mb-tabs-')), 'renderer');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Macrobell</title>');
  service = await createAppService({
    dataDir: mkdtempSync(join(tmpdir(), 'mb-tabs-data-')),
    mode: 'demo',
    secretStore: new MemorySecretStore(),
    demo: { seed: 3, autoplay: false, speed: 1 },
    logFile: null,
    logLevel: 'silent',
  });
  host = await startWebHost({ service, staticDir: dir });
  const login = await fetch(host.url, { redirect: 'manual' });
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
  // The page key the page keeps (the cookie alone opens nothing).
  key = /#key=([\w-]+)$/.exec(login.headers.get('location') ?? '')?.[1] as string;
});
afterAll(async () => {
  await host?.close();
  await service?.stop();
});

const call = async (method: string, input?: unknown) => {
  const r = await fetch(`${host.origin}/api/${method}`, {
    method: 'POST',
    headers: {
      cookie,
      [WEB_PAGE_KEY_HEADER]: key,
      'content-type': 'application/json',
      origin: host.origin,
    },
    body: input === undefined ? undefined : JSON.stringify(input),
  });
  return ((await r.json()) as { value: unknown }).value;
};

/** The other tab's event stream, opened before `act`: the first `event` whose data passes `test`. */
async function nextEvent<T>(
  event: string,
  test: (data: T) => boolean,
  act: () => Promise<unknown>,
) {
  const ctrl = new AbortController();
  const res = await fetch(`${host.origin}/api/events?key=${key}`, {
    headers: { cookie, origin: host.origin },
    signal: ctrl.signal,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const acted = act();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before ${event}`);
      text += new TextDecoder().decode(value);
      for (const block of text.split('\n\n')) {
        const name = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (name === event && data && test(JSON.parse(data) as T)) {
          await acted;
          return JSON.parse(data) as T;
        }
      }
    }
  } finally {
    ctrl.abort();
  }
}

describe('a second tab follows the first', () => {
  it('zone and clock', async () => {
    const pushed = await nextEvent<Settings>(
      'settings',
      (s) => s.timeZone === 'America/New_York',
      () => call('updateSettings', { timeZone: 'America/New_York', hourCycle: 'h12' }),
    );
    expect(pushed.hourCycle).toBe('h12');
  });

  it('alert rules (a pause)', async () => {
    const until = Date.now() + 3_600_000;
    const pushed = await nextEvent<Settings>(
      'settings',
      (s) => s.alertRules.pausedUntil !== null,
      () => call('pauseAlerts', { until }),
    );
    expect(pushed.alertRules.pausedUntil).toBe(until);
  });

  it('"Mark all read"', async () => {
    const pushed = await nextEvent<{ ids: number[] | null }>(
      'alertsRead',
      () => true,
      () => call('markAlertsRead', {}),
    );
    expect(pushed.ids).toBeNull();
  });
});
