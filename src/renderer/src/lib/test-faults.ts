/**
 * Test-only fault switches, for the end-to-end tests of a renderer that fails: a screen that
 * throws, a toasts layer that throws, a renderer that acknowledges nothing. Compiled in only
 * when the web UI is built in the `e2e` mode (`npm test` builds it so: scripts/web-build.mjs);
 * in every other build the constant is false and each switch folds to `false`.
 * A test turns one on with `window.__macrobellFaults = ['calendar-throws']`.
 */
declare const __MACROBELL_TEST_FAULTS__: boolean | undefined;

export type TestFault = 'calendar-throws' | 'toasts-throw' | 'no-ack';

export function testFault(fault: TestFault): boolean {
  if (typeof __MACROBELL_TEST_FAULTS__ === 'undefined' || !__MACROBELL_TEST_FAULTS__) return false;
  const on = (globalThis as { __macrobellFaults?: unknown }).__macrobellFaults;
  return Array.isArray(on) && on.includes(fault);
}

/** A component made to throw by its switch (the error boundaries' test). */
export function throwIfFault(fault: TestFault): void {
  if (testFault(fault)) throw new Error(`test fault: ${fault}`);
}
