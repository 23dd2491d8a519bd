/**
 * What a desktop tells the desk about the prints it alerted today (from its alert
 * receipts), sent with its presence reports: how many, how late (print → a surface
 * acknowledged it), how many no surface acknowledged, and the last one seen. "Today" is the UTC day, the same for every
 * desktop and the relay. Checked at the relay's boundary with this schema.
 */
import { z } from 'zod';

export const DAY_MS = 86_400_000;

/** The start of the UTC day holding `at`. */
export const utcDayStart = (at: number) => Math.floor(at / DAY_MS) * DAY_MS;

const ms = z.number().int().min(0).max(8.64e15);

export const alertsTodaySchema = z.strictObject({
  /** The UTC day counted (its midnight, unix ms). */
  day: ms,
  count: z.number().int().min(0).max(100_000),
  /** Prints no surface acknowledged (no toast, sound or notification seen); absent from older desktops. */
  unacknowledged: z.number().int().min(0).max(100_000).optional(),
  /** Print → alert acknowledged, median and worst, over the day's seen prints (null when none). */
  p50LateMs: ms.nullable(),
  maxLateMs: ms.nullable(),
  last: z
    .strictObject({
      title: z.string().max(200),
      printAt: ms,
      lateMs: ms,
    })
    .nullable(),
});

export type AlertsToday = z.infer<typeof alertsTodaySchema>;

/** Longest title a summary carries (the alert's own title, cut). */
export const ALERTS_TODAY_TITLE_MAX = 120;
