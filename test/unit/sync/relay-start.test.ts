/**
 * Where a relay stream opened with no id began (its `position` event) is the app's first
 * cursor, kept in the SQLite cache: a drop before the first notification resumes from it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/node/log/logger.js';
import { openStore, type Store } from '../../../src/main/store/index.js';
import { RELAY_CURSOR_KEY } from '../../../src/main/sync/engine.js';
import { RelayApplier } from '../../../src/main/sync/relay-apply.js';

const opened: Store[] = [];
afterEach(() => opened.splice(0).forEach((s) => s.close()));

function relayApplier(path: string): { store: Store; relay: RelayApplier } {
  const store = openStore({ path });
  opened.push(store);
  const unused = async () => {
    throw new Error('not used by start()');
  };
  const relay = new RelayApplier({
    store,
    applier: { applyNotification: unused, applyMany: unused },
    logger: silentLogger(),
    cursorKey: RELAY_CURSOR_KEY,
  });
  return { store, relay };
}

describe('the first stream position', () => {
  it('is kept as the cursor while there is none, across a restart', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mb-relay-start-')), 'c.db');
    const first = relayApplier(path);
    first.relay.start('1700000000000-3');
    first.store.close();
    opened.pop();
    const again = relayApplier(path);
    expect(again.store.getSyncState(RELAY_CURSOR_KEY)).toBe('1700000000000-3');
  });

  it('never moves a cursor the app already has (what it applied decides)', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mb-relay-start-')), 'c.db');
    const { store, relay } = relayApplier(path);
    store.setSyncState(RELAY_CURSOR_KEY, '41');
    relay.start('99');
    expect(store.getSyncState(RELAY_CURSOR_KEY)).toBe('41');
  });
});
