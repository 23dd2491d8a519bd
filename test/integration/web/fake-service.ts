/**
 * A second, tiny implementation of the service contract for testing the web host at its
 * boundary: every API method records its input and answers a canned value; pushes are
 * emitted by the test.
 */
import type { MacrobellService, ServiceEvents } from '../../../src/main/service-contract.js';
import { requestSchemas, type AppApi, type RequestMethod } from '../../../src/shared/ipc.js';

export interface FakeService extends Pick<MacrobellService, 'api' | 'on'> {
  calls: { method: RequestMethod; input: unknown }[];
  /** Make the next call of `method` throw this. */
  failNext(method: RequestMethod, err: Error): void;
  emit<E extends keyof ServiceEvents>(event: E, payload: ServiceEvents[E]): void;
  listenerCount(): number;
}

export function createFakeService(): FakeService {
  const calls: FakeService['calls'] = [];
  const failures = new Map<RequestMethod, Error>();
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const api = Object.fromEntries(
    (Object.keys(requestSchemas) as RequestMethod[]).map((method) => [
      method,
      async (input: unknown) => {
        calls.push({ method, input });
        const err = failures.get(method);
        if (err) {
          failures.delete(method);
          throw err;
        }
        return method === 'listEventDates' ? [{ id: 'ed-1', name: 'Nonfarm Payrolls' }] : null;
      },
    ]),
  ) as unknown as AppApi;
  return {
    api,
    calls,
    failNext: (method, err) => void failures.set(method, err),
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (p: unknown) => void);
      return () => void set.delete(listener as (p: unknown) => void);
    },
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}
