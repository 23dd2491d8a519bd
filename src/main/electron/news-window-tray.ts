/**
 * The tray's news-window countdown ("US NFP in 1:45", then "… window · 3m left"): the
 * releases are read again on each refresh of the tray, the text is worked out every second
 * from them (src/shared/news-windows.ts). Off: no text.
 */
import type { EventDate } from '../../shared/domain.js';
import { newsWindows, newsWindowTitle, type NewsWindow } from '../../shared/news-windows.js';
import type { MacrobellService } from '../service-contract.js';

const DAY_MS = 86_400_000;
const MAX_AFTER_MS = 120 * 60_000; // the longest "after" the settings allow

export interface NewsWindowClock {
  now: () => number;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (t: unknown) => void;
}

const realClock: NewsWindowClock = {
  now: Date.now,
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (t) => clearInterval(t as NodeJS.Timeout),
};

export class NewsWindowCountdown {
  private windows: NewsWindow[] = [];
  private text: string | null = null;
  private readonly timer: unknown;

  constructor(
    private readonly service: Pick<MacrobellService, 'api'>,
    private readonly onText: (text: string | null) => void,
    private readonly clock: NewsWindowClock = realClock,
  ) {
    this.timer = clock.setInterval(() => this.tick(), 1_000);
  }

  current(): string | null {
    return this.text;
  }

  /** Reads the settings and the releases of the next week again. Never throws. */
  async reload(): Promise<void> {
    try {
      const { newsWindow } = await this.service.api.getSettings();
      let dates: EventDate[] = [];
      if (newsWindow.enabled) {
        const now = this.clock.now();
        dates = await this.service.api.listEventDates({
          from: new Date(now - MAX_AFTER_MS).toISOString(),
          to: new Date(now + 7 * DAY_MS).toISOString(),
          volatilities: newsWindow.impacts,
        });
      }
      this.windows = newsWindows(dates, newsWindow);
    } catch {
      // The next refresh tries again; the last windows stand meanwhile.
    }
    this.tick();
  }

  stop(): void {
    this.clock.clearInterval(this.timer);
  }

  private tick(): void {
    const text = newsWindowTitle(this.windows, this.clock.now());
    if (text === this.text) return;
    this.text = text;
    this.onText(text);
  }
}
