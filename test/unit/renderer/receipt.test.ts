/** An alert's receipt in words: the one-line summary, the hops and their delays. */
import { describe, expect, it } from 'vitest';
import type { AlertReceipt } from '../../../src/shared/domain.js';
import {
  durationLabel,
  hopTimeLabel,
  receiptHops,
  receiptSummary,
} from '../../../src/renderer/src/lib/receipt.js';

const t0 = Date.parse('2026-11-06T13:30:00Z');
const receipt: AlertReceipt = {
  path: 'relay',
  scheduledAt: t0,
  lastUpdatedAt: t0,
  printAt: t0,
  relayReceivedAt: t0 + 62,
  appliedAt: t0 + 104,
  shownAt: t0 + 214,
};

describe('alert receipts', () => {
  it('says how long after the print the alert came, and by which path', () => {
    expect(receiptSummary(receipt)).toBe('+0.21 s after the print, via relay');
    expect(receiptSummary({ ...receipt, path: 'poll', shownAt: null })).toBe(
      '+0.10 s after the print, via safety net',
    );
    expect(receiptSummary({ ...receipt, path: 'backfill', shownAt: t0 + 20 * 60_000 })).toBe(
      '+20 min 0 s after the print, via backfill',
    );
  });

  it('says which surface showed it, or that none acknowledged it and when the fallback fired', () => {
    const sent = { ...receipt, sentAt: t0 + 120 };
    expect(receiptSummary({ ...sent, shownBy: 'toast' })).toBe(
      '+0.21 s after the print, via relay, shown by the toast',
    );
    expect(receiptSummary({ ...sent, shownAt: null })).toBe(
      'Not acknowledged by any surface, via relay',
    );
    expect(receiptSummary({ ...sent, shownAt: null, fallbackAt: t0 + 1_120 })).toBe(
      'Not acknowledged by any surface; the fallback fired +1.12 s after the print, via relay',
    );
    expect(
      receiptSummary({
        ...sent,
        fallbackAt: t0 + 1_120,
        shownAt: t0 + 1_130,
        shownBy: 'page-alert',
      }),
    ).toBe("+1.13 s after the print, via relay, shown by the page's fallback alert");
    const hops = receiptHops({ ...sent, fallbackAt: t0 + 1_120, shownAt: null });
    expect(hops.map((h) => h.label)).toEqual([
      'Scheduled',
      'Service stamped (lastUpdated)',
      'Relay received',
      'Applied by the app',
      'Sent to the window',
      'Fallback fired (no surface acknowledged it)',
    ]);
  });

  it('lists only the hops that happened, each with its delay after the print', () => {
    const hops = receiptHops({ ...receipt, path: 'webhook', relayReceivedAt: null });
    expect(hops.map((h) => [h.label, h.sincePrint])).toEqual([
      ['Scheduled', 0],
      ['Service stamped (lastUpdated)', 0],
      ['Applied by the app', 104],
      ['Notification shown', 214],
    ]);
    expect(hopTimeLabel(t0 + 214, 'UTC', 'h23')).toBe('13:30:00.214');
    // the 12-hour clock writes PM as the grid does, not en-GB's "pm"
    expect(hopTimeLabel(t0 + 214, 'UTC', 'h12')).toMatch(/^01:30:00\.214\sPM$/);
    expect(durationLabel(42_400)).toBe('42 s');
    expect(durationLabel(2 * 3_600_000 + 4 * 60_000)).toBe('2 h 4 min');
  });
});
