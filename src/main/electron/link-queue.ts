/**
 * macrobell:// links and second launches: those arriving before the window can open wait
 * (macOS sends them at launch), then each brings the window forward at its target.
 */
import { deepLinkInArgv, parseDeepLink } from './deep-link.js';
import type { WindowHost } from './window.js';

/** What a link needs of the window: to be shown, at a target. */
interface Shows {
  show(target?: Parameters<WindowHost['show']>[0]): unknown;
}

export class LinkQueue {
  private host: Shows | null = null;
  private pending: string[] = [];

  open(link: string): void {
    if (!this.host) return void this.pending.push(link);
    const target = parseDeepLink(link); // an invalid link just brings the window forward
    this.host.show(target && target.type !== 'open' ? target : undefined);
  }

  /** A second launch (with or without a link) may come while this one is still starting. */
  readonly onSecondInstance = (args: string[]): void =>
    this.open(deepLinkInArgv(args) ?? 'macrobell://open');

  /** The window is up: the links that waited, then this launch's own, open in order. */
  ready(host: Shows, argv: readonly string[]): void {
    const queued = [...this.pending, deepLinkInArgv(argv)].filter((l) => l !== null);
    this.pending = [];
    this.host = host;
    queued.forEach((link) => this.open(link));
  }
}
