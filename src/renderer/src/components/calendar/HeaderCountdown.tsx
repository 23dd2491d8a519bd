/**
 * The calendar header's countdowns, live each second: "Next alert: 🇺🇸 US Nonfarm Payrolls in
 * 12:34" (the rules' next release), "Next HIGH: …" when the next high-impact release is
 * another one (it is shown once: marked `data-countdown="high"` wherever it is), and while a
 * news window is open, "News window open — closes in 3:12". The same targets as the window
 * title (use-high-countdown.ts), in view on the screen a trader watches.
 */
import type { EventDate } from '../../../../shared/domain.js';
import { windowName } from '../../../../shared/news-windows.js';
import { clockCountdown } from '../../lib/time.js';
import { useHighCountdown } from './use-high-countdown.js';
import { CountdownPill, useNextAlert } from './NextRelease.js';

export function HeaderCountdown({ rows }: { rows: EventDate[] }) {
  const { now, next, open } = useHighCountdown(rows);
  const alert = useNextAlert(rows, now);
  return (
    <div className="header-countdowns">
      {open && (
        <div className="header-countdown news-window-open" data-testid="news-window-countdown">
          <strong>News window open</strong>{' '}
          <span>
            — closes in{' '}
            <span className="countdown" title={`${windowName(open)} window`}>
              {clockCountdown(open.end - now)}
            </span>
          </span>
        </div>
      )}
      {alert && (
        <CountdownPill
          label="Next alert:"
          ed={alert}
          now={now}
          high={alert.id === next?.id}
          testId="next-release"
        />
      )}
      {next && next.id !== alert?.id && (
        <CountdownPill label="Next HIGH:" ed={next} now={now} high testId="next-high" />
      )}
    </div>
  );
}
