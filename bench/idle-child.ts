/**
 * The app core at rest, as the tray app runs it with no window open: `createAppService`
 * started in demo mode (the embedded simulator plays its schedule) or live (real mode
 * against a simulator and a relay run by the parent, given in MACROBELL_* variables and
 * MB_IDLE_KEYS). Prints `ready <pid>` once started; on `reset` (a line on stdin) starts
 * counting timer callbacks afresh and answers `reset`; on `report` prints the timer
 * callbacks that ran since, by the delay they were set with. Nothing else runs in this process, so its CPU time is the core's.
 * argv: demo | live
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import timers from 'node:timers';
import { promisify } from 'node:util';

const mode = process.argv[2];
if (mode !== 'demo' && mode !== 'live') throw new Error('idle-child: demo or live');

// Timer callbacks that ran, by the delay asked for: what wakes the process, and how often.
// Counted by wrapping setTimeout/setInterval before the app is loaded, not with an
// async_hooks hook: a hook with `init` turns on V8's promise hooks, a JS call for every
// promise the app makes, and that cost landed in the CPU time measured (live mode's
// streams and requests make far more promises than demo).
const fired = new Map<number, number>();
let counting = false;
type TimerFn = (cb: unknown, delay?: number, ...args: unknown[]) => unknown;
const counted = (original: TimerFn): TimerFn => {
  const wrapped: TimerFn = (cb, delay, ...args) => {
    if (typeof cb !== 'function') return original(cb, delay, ...args);
    // Node clamps a delay under 1 ms (or not a number) to 1, as Timeout._idleTimeout shows
    const d = Number(delay) >= 1 ? Math.trunc(Number(delay)) : 1;
    return original(
      function (this: unknown, ...a: unknown[]) {
        if (counting) fired.set(d, (fired.get(d) ?? 0) + 1);
        return (cb as (...x: unknown[]) => unknown).apply(this, a);
      },
      delay,
      ...args,
    );
  };
  const custom = (original as unknown as Record<symbol, unknown>)[promisify.custom];
  if (custom) Object.defineProperty(wrapped, promisify.custom, { value: custom });
  return wrapped;
};
for (const name of ['setTimeout', 'setInterval'] as const) {
  const wrapped = counted(globalThis[name] as unknown as TimerFn);
  (globalThis as Record<string, unknown>)[name] = wrapped;
  (timers as unknown as Record<string, unknown>)[name] = wrapped;
}
// Loaded after the wrap, so the modules that keep a reference to setTimeout keep this one.
const { createAppService } = await import('../src/main/service.js');
const { MemorySecretStore } = await import('../src/main/secrets/index.js');

const secrets = new MemorySecretStore();
if (mode === 'live') {
  const [publicKey, privateKey, relayToken] = (process.env.MB_IDLE_KEYS ?? '').split(':');
  await secrets.set('publicKey', publicKey ?? '');
  await secrets.set('privateKey', privateKey ?? '');
  await secrets.set('relayToken', relayToken ?? '');
}
const service = await createAppService({
  dataDir: mkdtempSync(join(tmpdir(), `mb-bench-idle-${mode}-`)),
  mode: mode === 'demo' ? 'demo' : 'real',
  secretStore: secrets,
  logFile: null,
  logLevel: 'silent',
});
await service.start();
counting = true;
// Its own pid: under faketime the parent's child is the wrapper, not this process.
process.stdout.write(`ready ${process.pid}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'reset') {
    fired.clear();
    process.stdout.write('reset\n');
  }
  if (line !== 'report') return;
  process.stdout.write(
    `${JSON.stringify({ timerCallbacks: Object.fromEntries([...fired].sort((a, b) => a[0] - b[0])) })}\n`,
  );
});
process.on('SIGTERM', () => {
  void service.stop().finally(() => process.exit(0));
});
