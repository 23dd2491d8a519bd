/** "Next medium/high impact: 🇺🇸 US CPI in 7d 19h" — and it says what it counts. */
import type { EventDate } from '../../../../shared/domain.js';
import { volatilityRank } from '../../../../shared/format.js';
import { countdown } from '../../lib/time.js';
import { useNow } from '../../lib/use-now.js';
import { Flag } from '../Flag.js';

export function NextRelease({ rows }: { rows: EventDate[] }) {
  const now = useNow(1000);
  const pending = (r: EventDate) => r.actual === null && !r.isAllDay && Date.parse(r.dateUtc) > now;
  // Low-impact prints (weekly auctions, rig counts) would crowd out what moves markets; when
  // the filters leave nothing else, the next of any impact is shown, and labelled so.
  const important = rows.find((r) => pending(r) && volatilityRank(r.volatility) >= 2);
  const next = important ?? rows.find(pending);
  if (!next) return null;
  return (
    <div className="next-release" aria-live="off" data-testid="next-release">
      <span className="muted">{important ? 'Next medium/high impact:' : 'Next release:'}</span>{' '}
      <Flag code={next.countryCode} />
      <strong>
        {next.countryCode} {next.name}
      </strong>{' '}
      <span className="countdown">{countdown(Date.parse(next.dateUtc), now)}</span>
    </div>
  );
}
