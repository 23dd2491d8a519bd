/**
 * The alert history's JSON columns (target, receipt) read through schemas: a damaged or
 * unexpected value costs that value — the alert opens the history, the receipt is dropped —
 * never the history itself, and never reaches the window in a shape the types do not say.
 */
import { z } from 'zod';
import {
  ALERT_SURFACES,
  type AlertReceipt,
  type AlertTarget,
  type ChangeSource,
} from '../../shared/domain.js';

const id = z.string();
const targetSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('eventDate'), eventDateId: id, eventId: id }),
  z.object({ type: z.literal('post'), postId: id, culture: id }),
  z.object({ type: z.literal('alerts') }),
]) satisfies z.ZodType<AlertTarget>;

const at = z.number().nullable();
const receiptSchema = z.object({
  path: z.enum(['relay', 'poll', 'backfill', 'webhook', 'local'] satisfies ChangeSource[]),
  scheduledAt: at,
  lastUpdatedAt: at,
  printAt: at,
  relayReceivedAt: at,
  appliedAt: z.number(),
  shownAt: at,
  shownBy: z.enum(ALERT_SURFACES).nullable().optional(),
  sentAt: at.optional(),
  fallbackAt: at.optional(),
}) satisfies z.ZodType<AlertReceipt>;

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Where the alert leads; a damaged target leads to the alert history. */
export function parseTarget(text: string): AlertTarget {
  const r = targetSchema.safeParse(parsed(text));
  return r.success ? r.data : { type: 'alerts' };
}

/** The alert's receipt, or null (none, or damaged). */
export function parseReceipt(text: string | null): AlertReceipt | null {
  if (text === null) return null;
  const r = receiptSchema.safeParse(parsed(text));
  return r.success ? r.data : null;
}
