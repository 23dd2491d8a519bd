/**
 * "Did bob get NFP, and when?": the prints received in a range (webhooks that set a
 * release's `actual`), named from the calendar, and for each of the trader's desktops when
 * it applied each one — from the applied times it reports with its presence
 * (desk-applied.ts) — or that it has not (`relay log --user NAME --grep NFP`).
 */
import { z } from 'zod';
import { appliedTimeOf } from '../../../shared/desk-applied.js';
import { plainPhrase } from '../../../shared/plain-text.js';
import { compareIds, type EventLog, type StoredEvent } from '../../log/event-log.js';
import type { PresenceStore } from '../presence/presence-store.js';
import type { UserStore } from '../../users/user-store.js';
import { LOG_LIMIT, readRange } from './delivery-log.js';
import { ReplayRefused } from './replay.js';

export interface TraderDelivery {
  /** The relay's event id of the print. */
  id: string;
  release: string;
  /** When the relay received the print. */
  printedAt: number;
  desktop: string;
  os: string;
  /** When the desktop applied it (its clock); null: not seen. */
  appliedAt: number | null;
  /** False when its applied times begin after the print: applied by `appliedAt`, not at. */
  exact: boolean;
}

export interface TraderLog {
  user: string;
  rows: TraderDelivery[];
  /** More prints in the range than listed. */
  truncated: boolean;
  /** Why releases are shown by id rather than name (no provider keys, say); null: named. */
  namesUnavailable: string | null;
}

/** The service's update of a release; a print is one that sets its `actual`. */
const releaseUpdate = z.object({
  type: z.literal('eventDate_updated'),
  eventDateId: z.string().min(1).max(100),
  changes: z.array(z.object({ key: z.string(), value: z.unknown() })),
});

/** The release id a webhook prints, or null when it is no print. */
function printedRelease(e: StoredEvent): string | null {
  if (e.type !== 'eventDate_updated') return null;
  let body: unknown;
  try {
    body = JSON.parse(e.body.toString('utf8'));
  } catch {
    return null;
  }
  const update = releaseUpdate.safeParse(body);
  if (!update.success) return null;
  const actual = update.data.changes.find((c) => c.key === 'actual');
  return actual && actual.value !== null && actual.value !== undefined
    ? update.data.eventDateId
    : null;
}

export async function traderLog(opts: {
  events: EventLog;
  presence: PresenceStore;
  /** Release names by the service's event-date id (the calendar with the desk's keys). */
  releaseNames: () => Promise<Map<string, string>>;
  user: string;
  /** Matched against release names, case-insensitively; '' matches all. */
  grep: string;
  since: number;
  until: number;
}): Promise<TraderLog> {
  let names = new Map<string, string>();
  let namesUnavailable: string | null = null;
  try {
    names = await opts.releaseNames();
  } catch (err) {
    namesUnavailable = (err as Error).message;
  }
  const nameOf = (releaseId: string) => {
    const name = names.get(releaseId);
    // The service's text, printed on an operator's terminal: one plain phrase.
    return name === undefined ? `release ${plainPhrase(releaseId)}` : plainPhrase(name);
  };
  const grep = opts.grep.toLowerCase();
  const prints: { id: string; release: string; printedAt: number }[] = [];
  let truncated = false;
  await readRange(opts.events, opts.since, opts.until, (e) => {
    const releaseId = printedRelease(e);
    if (releaseId === null) return true;
    const release = nameOf(releaseId);
    if (!release.toLowerCase().includes(grep)) return true;
    if (prints.length === LOG_LIMIT) return !(truncated = true);
    prints.push({ id: e.id, release, printedAt: e.receivedAt });
    return true;
  });
  const desktops = (await opts.presence.list())
    .filter((p) => p.user === opts.user)
    .sort((a, b) => a.desktop.localeCompare(b.desktop));
  const rows: TraderDelivery[] = [];
  for (const print of prints)
    for (const d of desktops) {
      // An app older than the applied times says only how far it got, and when it said so.
      const past = d.appliedId !== null && compareIds(d.appliedId, print.id) >= 0;
      const applied =
        appliedTimeOf(d.appliedHistory, print.id) ??
        (past && d.appliedAt !== null ? { at: d.appliedAt, exact: false } : null);
      rows.push({
        ...print,
        desktop: d.desktop,
        os: d.os,
        appliedAt: applied?.at ?? null,
        exact: applied?.exact ?? false,
      });
    }
  return { user: opts.user, rows, truncated, namesUnavailable };
}

/**
 * `traderLog` for the names the desk knows: a typo is answered 404, not read as "bob saw
 * nothing"; a revoked trader's past can still be asked for.
 */
export function knownTradersLog(deps: {
  users: Pick<UserStore, 'list'>;
  events: EventLog;
  presence: PresenceStore;
  releaseNames: () => Promise<Map<string, string>>;
}) {
  return async (user: string, grep: string, since: number, until: number) => {
    if (!(await deps.users.list()).some((u) => u.name === user))
      throw new ReplayRefused(404, 'unknown_user', `No trader named "${user}" on this desk`);
    return traderLog({ ...deps, user, grep, since, until });
  };
}
