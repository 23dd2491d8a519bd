/** A stand-in for the core service (src/main/service.ts): records calls, emits pushes. */
import type { AppStatus, EventDate } from '../../../src/shared/domain.js';
import type { MacrobellService, ServiceEvents } from '../../../src/main/service-contract.js';
import { eventDateFixture, statusFixture } from '../../fixtures/domain.js';
import { waitFor } from '../../support/wait.js';

export interface FakeService extends MacrobellService {
  calls: { method: string; input: unknown }[];
  stopped: number;
  upcoming: EventDate[];
  emit<E extends keyof ServiceEvents>(event: E, payload: ServiceEvents[E]): void;
  listenerCount(event: keyof ServiceEvents): number;
}

export const status = statusFixture;

export function eventDate(over: Partial<EventDate> = {}): EventDate {
  return eventDateFixture({ periodType: null, name: 'NFP', unit: 'K', lastUpdated: 0, ...over });
}

/** Every api method answers `{ called, input }` unless `answers` says otherwise. */
export function fakeService(
  answers: Partial<Record<string, (input: unknown) => Promise<unknown>>> = {},
  currentStatus: () => AppStatus = () => status(),
): FakeService {
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const svc: FakeService = {
    calls: [],
    stopped: 0,
    upcoming: [],
    api: new Proxy({} as MacrobellService['api'], {
      get: (_t, method: string) => async (input: unknown) => {
        svc.calls.push({ method, input });
        const answer = answers[method];
        if (answer) return answer(input);
        if (method === 'getStatus') return currentStatus();
        return { called: method, input };
      },
    }),
    demo: true,
    dataDir: '/tmp/fake',
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (p: unknown) => void);
      return () => set.delete(listener as (p: unknown) => void);
    },
    emit(event, payload) {
      listeners.get(event)?.forEach((l) => l(payload));
    },
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
    upcomingReleases: (limit) => svc.upcoming.slice(0, limit),
    start: async () => undefined,
    stop: async () => {
      svc.stopped++;
    },
  };
  return svc;
}

/** Wait until `check` passes (the shared wait, test/support/wait.ts, bounded at 5 s). */
export async function until(check: () => boolean, what: string): Promise<void> {
  await waitFor(check, what, 5_000);
}
