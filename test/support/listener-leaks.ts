/**
 * Every unit and integration file runs with a listener-leak threshold (src/shared/event.ts):
 * an emitter that gathers more listeners than this holds subscriptions nobody disposes (one
 * per request, per render), and the test that did it fails with the subscriber's stack.
 * Other unexpected errors (a listener that threw) are printed, as in the app.
 */
import { afterEach } from 'vitest';
import {
  ListenerLeakError,
  setListenerLeakThreshold,
  setUnexpectedErrorHandler,
} from '../../src/shared/event.js';

/** Far above any emitter's honest audience in a test (a few parts, a few windows). */
export const LISTENER_LEAK_THRESHOLD = 250;

const leaks: ListenerLeakError[] = [];
setListenerLeakThreshold(LISTENER_LEAK_THRESHOLD);
setUnexpectedErrorHandler((err) => {
  if (err instanceof ListenerLeakError) leaks.push(err);
  else console.error('a listener failed:', err);
});

afterEach(() => {
  const found = leaks.splice(0);
  if (found.length > 0) throw found[0];
});
