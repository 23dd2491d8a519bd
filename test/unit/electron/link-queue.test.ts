/** Links and second launches before and after the window is up. */
import { describe, expect, it } from 'vitest';
import { LinkQueue } from '../../../src/main/electron/link-queue.js';

function recorder() {
  const shown: unknown[] = [];
  return { shown, host: { show: (target?: unknown) => void shown.push(target ?? 'window') } };
}

describe('LinkQueue', () => {
  it('holds links that come before the window, then opens them in order, this launch’s last', () => {
    const q = new LinkQueue();
    const { shown, host } = recorder();
    q.open('macrobell://settings');
    q.onSecondInstance(['macrobell', '--flag']);
    expect(shown).toEqual([]);
    q.ready(host, ['macrobell', 'macrobell://alerts']);
    expect(shown).toEqual([{ type: 'settings' }, 'window', { type: 'alerts' }]);
  });

  it('opens at once once ready; an invalid link only brings the window forward', () => {
    const q = new LinkQueue();
    const { shown, host } = recorder();
    q.ready(host, []);
    expect(shown).toEqual([]);
    q.onSecondInstance(['macrobell', 'macrobell://settings']);
    q.open('macrobell://nonsense/<script>');
    expect(shown).toEqual([{ type: 'settings' }, 'window']);
  });
});
