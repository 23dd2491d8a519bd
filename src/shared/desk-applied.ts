/**
 * What a desktop tells the desk about when it applied events (sent with its presence
 * reports): its last APPLIED_HISTORY_MAX checkpoints, each the last relay event id of an
 * applied batch and when (the desktop's clock, unix ms), oldest first. Desktops apply
 * strictly in order, so the first checkpoint at or past an event is when it was applied:
 * `relay log --user NAME` answers "did bob get NFP, and when?" from it. Checked at the
 * relay's boundary with this schema.
 */
import { z } from 'zod';
import { RELAY_EVENT_ID, compareEventIds } from './relay-ids.js';

/** Checkpoints kept and sent: a few hours of prints at one batch a print, ~2 KiB a report. */
export const APPLIED_HISTORY_MAX = 50;

const appliedCheckpointSchema = z.strictObject({
  id: z.string().regex(RELAY_EVENT_ID, 'must be an event id'),
  at: z.number().int().min(0).max(8.64e15),
});

export const appliedHistorySchema = z
  .array(appliedCheckpointSchema)
  .max(APPLIED_HISTORY_MAX, `at most ${APPLIED_HISTORY_MAX} checkpoints`);

type AppliedCheckpoint = z.infer<typeof appliedCheckpointSchema>;
export type AppliedHistory = AppliedCheckpoint[];

/**
 * When the desktop applied `id`, from its checkpoints: the first one at or past it, when an
 * earlier checkpoint shows it was not applied before (else the history begins after it:
 * applied by then, time not kept). `null`: not applied by the last checkpoint.
 */
export function appliedTimeOf(
  history: AppliedHistory,
  id: string,
): { at: number; exact: boolean } | null {
  const at = history.findIndex((c) => compareEventIds(c.id, id) >= 0);
  if (at === -1) return null;
  return { at: (history[at] as AppliedCheckpoint).at, exact: at > 0 };
}
