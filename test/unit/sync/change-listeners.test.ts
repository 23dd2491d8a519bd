/**
 * ServiceHealth and TokenManager tell their listeners through an Emitter: a listener that
 * throws is reported once and isolated, so it can neither turn a request that succeeded into
 * a recorded outage nor fail the token request whose state it was told of.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceHealth } from '../../../src/main/sync/service-health.js';
import { TokenManager } from '../../../src/node/oauth/token-manager.js';
import { setUnexpectedErrorHandler } from '../../../src/shared/event.js';

let restore: () => void = () => undefined;
afterEach(() => restore());
function recordUnexpected(): string[] {
  const seen: string[] = [];
  restore = setUnexpectedErrorHandler((err) => seen.push((err as Error).message));
  return seen;
}
const broken = () => {
  throw new Error('listener broke');
};

describe('a throwing change listener', () => {
  it('leaves ServiceHealth recording the success, and the other listeners told', async () => {
    const seen = recordUnexpected();
    const health = new ServiceHealth(() => 1_000);
    const told: boolean[] = [];
    health.onChange(broken);
    health.onChange((_, recovered) => told.push(recovered));
    await expect(health.track(() => Promise.resolve('answer'))).resolves.toBe('answer');
    expect(health.get()).toEqual({ lastOkAt: 1_000, failingSince: null, error: null });
    expect(told).toEqual([false]);
    expect(seen).toEqual(['listener broke']);
  });

  it('does not fail the token request whose state changed', async () => {
    const seen = recordUnexpected();
    const tokens = new TokenManager({
      source: () =>
        Promise.resolve({ accessToken: 'tok', tokenType: 'Bearer', expiresInSec: 3600 }),
    });
    const states: string[] = [];
    const off = tokens.onStateChange(broken);
    tokens.onStateChange((scope, state) => states.push(`${scope}:${state}`));
    await expect(tokens.getAuthorization('news')).resolves.toBe('Bearer tok');
    expect(states.at(-1)).toBe('news:valid');
    expect(seen.length).toBe(states.length);
    expect(new Set(seen)).toEqual(new Set(['listener broke']));
    off();
  });
});
