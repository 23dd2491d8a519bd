/**
 * Every push is checked against the contract's schema (`shared/push-schemas.ts`) before a
 * store sees it: a malformed one is dropped and reported once, never handed on to crash a
 * store. The schemas (and zod) load in a chunk of their own, so the first render does not
 * wait for them; pushes that arrive meanwhile wait in order.
 */
import type { PushEvent, PushPayloads } from '../../../shared/ipc.js';
import type * as PushSchemas from '../../../shared/push-schemas.js';

/** Hands a raw push on, checked: `deliver` gets a valid payload, `reportBad` each bad one once. */
export type PushGate = <E extends PushEvent>(
  name: E,
  payload: unknown,
  deliver: (payload: PushPayloads[E]) => void,
) => void;

export function createPushGate(reportBad: (problem: string) => void): PushGate {
  let schemas: Promise<typeof PushSchemas> | undefined;
  let loadFailed = false;
  return (name, payload, deliver) => {
    schemas ??= import('../../../shared/push-schemas.js');
    schemas.then(
      ({ checkPush }) => {
        const checked = checkPush(name, payload);
        if (checked.ok) deliver(checked.payload);
        else reportBad(checked.problem);
      },
      (err: unknown) => {
        if (loadFailed) return;
        loadFailed = true;
        reportBad(`could not load the push checks, so it shows no push: ${String(err)}`);
      },
    );
  };
}
