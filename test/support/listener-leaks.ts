/**
 * Every unit and integration file runs with a listener-leak threshold (src/shared/event.ts):
 * an emitter that gathers more listeners than this holds subscriptions nobody disposes (one
 * per request, per render), and the test that did it fails with the subscriber's stack.
 * Other unexpected errors (a listener that threw) go to the default handler: printed.
 */
import { afterEach } from 'vitest';
import { setListenerLeakThreshold, type ListenerLeakError } from '../../src/shared/event.js';

/** Far above any emitter's honest audience in a test (a few parts, a few windows). */
const LISTENER_LEAK_THRESHOLD = 250;

const leaks: ListenerLeakError[] = [];
/** The threshold and its report; leaks have their own, so a core or relay logging does not hide them. */
export function checkListenerLeaks(): void {
  setListenerLeakThreshold(LISTENER_LEAK_THRESHOLD, (err) => leaks.push(err));
}
checkListenerLeaks();

afterEach(() => {
  const found = leaks.splice(0);
  if (found.length > 0) throw found[0];
});
