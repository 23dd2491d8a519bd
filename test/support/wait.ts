import { vi } from 'vitest';

/**
 * Polls `check` (vitest's `vi.waitFor`) until it returns a truthy value, which it returns;
 * a thrown error is retried too. On timeout the error says what was awaited.
 */
export function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (!value) throw new Error(`timed out waiting for ${what}`);
      return value as NonNullable<T>;
    },
    { timeout: timeoutMs, interval: 25 },
  );
}
