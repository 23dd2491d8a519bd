/** Helpers for the relay tests: polling waits, raw HTTP, a relay child process. */
import { mkdtempSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { waitFor as sharedWaitFor } from '../../support/wait.js';
import { exited, spawnCli, type Proc } from '../../support/spawn-cli.js';

export const SECRET = 'test-secret-path';
export const TOKEN = 'test-desktop-token';

export const tempDir = (prefix = 'mb-relay-') => mkdtempSync(join(tmpdir(), prefix));

/** The shared wait (test/support/wait.ts) with a longer default: relays start as children. */
export const waitFor = <T>(check: () => T | Promise<T>, what: string, timeoutMs = 20_000) =>
  sharedWaitFor(check, what, timeoutMs);

export async function post(
  url: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<{ status: number; text: string }> {
  const res = await request(url, { method: 'POST', headers, body });
  return { status: res.statusCode, text: await res.body.text() };
}

export async function pageAll(
  baseUrl: string,
  token = TOKEN,
): Promise<{ id: string; receivedAt: number; body: { type: string; n?: number } }[]> {
  const out: { id: string; receivedAt: number; body: { type: string; n?: number } }[] = [];
  let after = '0';
  for (let i = 0; i < 1000; i++) {
    const res = await request(`${baseUrl}/events/page?after=${after}&limit=1000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode !== 200) throw new Error(`page answered ${res.statusCode}`);
    const page = (await res.body.json()) as {
      events: { id: string; receivedAt: number; body: { type: string; n?: number } }[];
      nextAfter: string;
      hasMore: boolean;
    };
    out.push(...page.events);
    after = page.nextAfter;
    if (!page.hasMore) break;
  }
  return out;
}

/** A raw SSE reader on node:http, to see the exact bytes the relay sends. */
export function openRawStream(
  url: string,
  headers: Record<string, string>,
): Promise<{ res: IncomingMessage; text: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('error', () => undefined);
      resolve({ res, text: () => text, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A relay child process (its URL from its first stdout line). */
export type RelayProcess = Proc;

/** `tsx src/relay/cli.ts` as a child; resolves at its first stdout line. */
export function spawnRelay(args: string[], env: NodeJS.ProcessEnv): Promise<RelayProcess> {
  return spawnCli('src/relay/cli.ts', args, env, /^relay listening on (\S+)\n/, {
    name: 'the relay',
    timeoutMs: 30_000,
  });
}

export { exited };

export interface SseFrame {
  event: string;
  id: string | null;
  data: string;
}

/** An SSE reader parsing frames as they arrive (no re-scan of a growing text). */
export function openSseReader(
  url: string,
  headers: Record<string, string>,
): Promise<{ res: IncomingMessage; frames: SseFrame[]; closed: () => boolean; close: () => void }> {
  return new Promise((resolve, reject) => {
    const frames: SseFrame[] = [];
    let closed = false;
    let rest = '';
    const req = httpRequest(url, { headers }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        rest += d;
        let end: number;
        while ((end = rest.indexOf('\n\n')) >= 0) {
          const block = rest.slice(0, end);
          rest = rest.slice(end + 2);
          const frame: SseFrame = { event: 'message', id: null, data: '' };
          let fields = 0;
          for (const line of block.split('\n')) {
            const m = /^(event|id|data): ?(.*)$/.exec(line);
            if (!m) continue;
            fields++;
            if (m[1] === 'event') frame.event = m[2] as string;
            else if (m[1] === 'id') frame.id = m[2] as string;
            else frame.data += m[2];
          }
          if (fields > 0 && (frame.event !== 'message' || frame.data !== '')) frames.push(frame);
        }
      });
      res.on('close', () => (closed = true));
      res.on('error', () => (closed = true));
      resolve({ res, frames, closed: () => closed, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}
