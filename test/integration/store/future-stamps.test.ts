/**
 * The store's "older update never wins" rule with stamps from the future: a record or a
 * deletion stamped beyond clock skew (a forged or replayed notification) outranks
 * nothing, so the service's own values replace it, and the store says so (`overrode`) so
 * the restore raises no alert. Stamps within the skew keep the usual rule.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/index.js';
import { MAX_CLOCK_SKEW_SEC } from '../../../src/main/store/trusted-stamp.js';
import { ed } from './fixtures.js';

const NOW_MS = Date.parse('2026-11-20T12:00:00Z');
const NOW = NOW_MS / 1000;
const open = () =>
  openStore({ path: join(mkdtempSync(join(tmpdir(), 'mb-future-')), 'c.db'), now: () => NOW_MS });

describe('stamps from the future', () => {
  it("let the service's older record replace a far-future forged one, flagged as a restore", () => {
    const s = open();
    s.upsertEventDate(ed('a', { lastUpdated: NOW - 600, actual: null }), {});
    const forged = s.upsertEventDate(ed('a', { lastUpdated: 4102444800, actual: 9.75 }), {});
    expect(forged).toMatchObject({ written: true, overrode: false });
    const restored = s.upsertEventDate(ed('a', { lastUpdated: NOW - 600, actual: null }), {});
    expect(restored).toMatchObject({ written: true, overrode: true, previous: { actual: 9.75 } });
    expect(s.getEventDate('a')?.actual).toBeNull();
    s.close();
  });

  it('keep the usual rule within the clock skew', () => {
    const s = open();
    s.upsertEventDate(ed('a', { lastUpdated: NOW + MAX_CLOCK_SKEW_SEC - 1, actual: 2 }), {});
    const older = s.upsertEventDate(ed('a', { lastUpdated: NOW - 600, actual: 1 }), {});
    expect(older.written).toBe(false);
    expect(s.getEventDate('a')?.actual).toBe(2);
    s.close();
  });

  it('do not keep a record deleted once the service lists it again', () => {
    const s = open();
    s.upsertEventDate(ed('a', { lastUpdated: NOW - 600 }), {});
    expect(s.deleteEventDate('a', 4102444800)?.id).toBe('a');
    expect(s.isTombstoned('eventDate', 'a', NOW - 600)).toBe(false);
    const back = s.upsertEventDate(ed('a', { lastUpdated: NOW - 600 }), {});
    expect(back).toMatchObject({ written: true, overrode: true, previous: null });
    s.close();
  });

  it('let the service remove a record a forged update stamped in the future', () => {
    const s = open();
    s.upsertEventDate(ed('a', { lastUpdated: 4102444800 }), {});
    expect(s.deleteEventDate('a', NOW)?.id).toBe('a');
    s.close();
  });
});
