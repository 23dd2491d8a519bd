/**
 * The app's one failure catalogue (src/main/errors.ts `failureKind`): by class, never by an
 * error's name or a `code` string — a programming error is neither an outage nor worth a
 * retry (it used to be both when it carried a string `code`).
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidNotificationError, failureKind } from '../../../src/main/errors.js';
import { isRetryable } from '../../../src/main/sync/relay-apply.js';
import { isConnectivityError } from '../../../src/main/sync/service-health.js';
import { HttpError, NetworkError } from '../../../src/node/http/client.js';
import { AuthError } from '../../../src/node/oauth/errors.js';
import { NotFoundError, ResponseShapeError } from '../../../src/node/service/errors.js';

const http = (status: number) => new HttpError(status, 'https://calendar.example/x', '', null, {});

/** A real SQLite failure: a write to a database opened read-only. */
function sqliteError(): unknown {
  const path = join(mkdtempSync(join(tmpdir(), 'mb-fail-')), 'x.db');
  new Database(path).exec('create table t (x)');
  try {
    new Database(path, { readonly: true }).exec('insert into t values (1)');
  } catch (err) {
    return err;
  }
  throw new Error('the write did not fail');
}

describe('failureKind', () => {
  it('the network, 5xx, 429, 401 and the token service are outages, retried', () => {
    for (const err of [
      new NetworkError('https://calendar.example', new Error('ECONNREFUSED')),
      http(503),
      http(429),
      http(401),
      new AuthError('invalid_client', 'calendar', 401, null),
    ])
      expect(failureKind(err)).toEqual({ connectivity: true, retryable: true });
  });

  it('an answer about the item is no outage and not retried', () => {
    for (const err of [
      new NotFoundError('gone'),
      http(400),
      new ResponseShapeError('/eventdates', 'actual: expected number'),
      new InvalidNotificationError('no type'),
    ])
      expect(failureKind(err)).toEqual({ connectivity: false, retryable: false });
  });

  it('the machine’s own trouble (SQLite) is retried, and says nothing about the service', () => {
    expect(failureKind(sqliteError())).toEqual({ connectivity: false, retryable: true });
    // Busy: another connection holds the write lock.
    const path = join(mkdtempSync(join(tmpdir(), 'mb-busy-')), 'x.db');
    const holder = new Database(path);
    holder.exec('create table t (x)');
    holder.exec('begin immediate');
    const busy = (() => {
      try {
        new Database(path, { timeout: 0 }).exec('insert into t values (1)');
      } catch (err) {
        return err;
      }
      throw new Error('the write did not wait for the lock');
    })();
    holder.exec('rollback');
    expect((busy as { code?: string }).code).toBe('SQLITE_BUSY');
    expect(failureKind(busy)).toEqual({ connectivity: false, retryable: true });
  });

  it('a SQLite error about the row (a constraint, a corrupt row) is not retried forever (issue #42)', () => {
    const db = new Database(':memory:');
    db.exec('create table t (id text primary key, n integer not null check (n >= 0))');
    db.prepare('insert into t values (?, ?)').run('a', 1);
    const failing = [
      () => db.prepare('insert into t values (?, ?)').run('a', 2), // SQLITE_CONSTRAINT_PRIMARYKEY
      () => db.prepare('insert into t values (?, ?)').run('b', -1), // SQLITE_CONSTRAINT_CHECK
      () => db.prepare('select * from missing').all(), // SQLITE_ERROR: the code is wrong
    ];
    for (const run of failing) {
      let caught: unknown = null;
      try {
        run();
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(Database.SqliteError);
      expect(failureKind(caught)).toEqual({ connectivity: false, retryable: false });
    }
  });

  it('a bug is neither, whatever string code or name it carries', () => {
    const coded = Object.assign(new TypeError('x is undefined'), { code: 'ERR_SOMETHING' });
    const named = Object.assign(new Error('looks like one'), { name: 'NetworkError' });
    for (const err of [coded, named, { code: 'network' }, 'boom', null]) {
      expect(isConnectivityError(err)).toBe(false);
      expect(isRetryable(err)).toBe(false);
    }
  });
});
