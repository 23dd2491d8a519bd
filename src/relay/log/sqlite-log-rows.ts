/**
 * What the SQLite log (sqlite-log.ts) reads and writes, row by row: an event row, the
 * checked bookkeeping rows, and the kept headers' JSON text.
 */
import { z } from 'zod';
import { rowMapper } from '../../node/sqlite/rows.js';

/** An event row as the log reads it back (written only here, so typed, not checked, per row). */
export interface EventRow {
  id: number;
  received_at: number;
  type: string;
  body: Buffer;
}

/** The rows of the log's bookkeeping reads, checked (one mapper per shape). */
export const ROWS = {
  sequence: rowMapper('the events sequence', { seq: z.number() }),
  maxOrMinId: rowMapper('an events id bound', { id: z.number().nullable() }),
  trimmed: rowMapper('meta trimmed_through', { value: z.number() }),
  size: rowMapper('the events size', { n: z.number(), b: z.number() }),
};

/**
 * The kept headers as stored (JSON text). Webhooks from one sender carry the same few
 * headers, so the text of the last set is reused when they are equal.
 */
let lastHeaders: Record<string, string> = {};
let lastHeadersText = '{}';
export function headersText(headers: Record<string, string>): string {
  const keys = Object.keys(headers);
  const lastKeys = Object.keys(lastHeaders);
  let same = keys.length === lastKeys.length;
  for (let i = 0; same && i < keys.length; i++) {
    const k = keys[i] as string;
    same = k === lastKeys[i] && headers[k] === lastHeaders[k];
  }
  if (!same) {
    lastHeaders = headers;
    lastHeadersText = JSON.stringify(headers);
  }
  return lastHeadersText;
}
