/**
 * The web host's recent pushes, each framed once with an id (`<run>.<n>`), so a page whose
 * stream dropped resumes where it was (`Last-Event-ID`): a notification pushed while it
 * reconnected still reaches it, its toast and sound included. Bounded by count and by bytes;
 * a page whose last id is older than what is kept — or from another run of the host — is told
 * to read everything again (`resync`) instead of silently missing what fell out.
 */
import { randomBytes } from 'node:crypto';
import { PUSH_EVENTS } from '../../shared/ipc.js';
import type { MacrobellService } from '../service-contract.js';

interface Entry {
  seq: number;
  frame: string;
}

export interface PushLogOptions {
  /** Most pushes kept (the newest). */
  maxEntries?: number;
  /** Most bytes of frames kept (a calendar's change set can be large). */
  maxBytes?: number;
}

/** What a page gets on (re)connecting: the frames after its last id, or "read again". */
export type Resume = { frames: string[] } | 'resync';

export class PushLog {
  /** Ids of an earlier run of the host never match this one's. */
  private readonly run = randomBytes(4).toString('hex');
  private seq = 0;
  private entries: Entry[] = [];
  private bytes = 0;
  private readonly listeners = new Set<(frame: string) => void>();
  private readonly offs: (() => void)[];
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(service: Pick<MacrobellService, 'on'>, opts: PushLogOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 500;
    this.maxBytes = opts.maxBytes ?? 4_000_000;
    this.offs = PUSH_EVENTS.map((name) =>
      service.on(name, (payload) => this.append(name, payload)),
    );
  }

  /** Every push from now on, as a framed event. */
  subscribe(listener: (frame: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What a page that last saw `lastEventId` missed (nothing for a first connection). */
  since(lastEventId: string | null): Resume {
    if (!lastEventId) return { frames: [] };
    const m = /^([0-9a-f]{8})\.(\d{1,15})$/.exec(lastEventId);
    if (!m || m[1] !== this.run) return 'resync';
    const last = Number(m[2]);
    if (last > this.seq) return 'resync';
    const oldest = this.entries[0]?.seq ?? this.seq + 1;
    // The push after `last` fell out of the log: the page cannot be brought up to date by frames.
    if (last + 1 < oldest) return 'resync';
    return { frames: this.entries.filter((e) => e.seq > last).map((e) => e.frame) };
  }

  dispose(): void {
    this.offs.forEach((off) => off());
    this.listeners.clear();
    this.entries = [];
  }

  private append(name: string, payload: unknown): void {
    const seq = ++this.seq;
    const frame = `id: ${this.run}.${seq}\nevent: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
    this.entries.push({ seq, frame });
    this.bytes += frame.length;
    while (
      this.entries.length > 1 &&
      (this.entries.length > this.maxEntries || this.bytes > this.maxBytes)
    ) {
      this.bytes -= (this.entries.shift() as Entry).frame.length;
    }
    this.listeners.forEach((l) => l(frame));
  }
}

/** The frame that tells a page to read everything again (its position is lost). */
export const RESYNC_FRAME = 'event: resync\ndata: {}\n\n';
