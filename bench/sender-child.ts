/**
 * Webhook senders for time to alert, in their own process: on the user's machine the
 * senders are the service's servers elsewhere, so they must not share the app core's
 * event loop, and on two shared cores they should cost as little CPU as they can. Each
 * sender is one keep-alive HTTP/1.1 connection writing a prepared request and reading the
 * status line of its answer (wrk's approach; no client library in the way). Each job
 * arrives over IPC; the reply carries, per key, the wall-clock time (ms, sub-ms
 * precision) just before its request was written to the socket.
 */
import { connect, type Socket } from 'node:net';
import { wallMs } from './lib.js';

export interface SendJob {
  id: number;
  url: string;
  items: { key: string; body: string }[];
  concurrency: number;
}
export interface SendReply {
  id: number;
  sentAt: Record<string, number>;
  failures: number;
}

const HEAD_END = '\r\n\r\n';

/** One connection; `post` resolves with the status code of the answer. */
class Connection {
  private buf = '';
  private waiting: { resolve: (status: number) => void; reject: (e: Error) => void } | null = null;
  private readonly socket: Socket;

  constructor(private readonly url: URL) {
    this.socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => this.onData(chunk));
    const fail = (e: Error) => this.waiting?.reject(e);
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
  }

  post(body: string): Promise<number> {
    const head =
      `POST ${this.url.pathname} HTTP/1.1\r\nhost: ${this.url.host}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    return new Promise((resolve, reject) => {
      if (this.socket.destroyed) return reject(new Error('connection closed'));
      this.waiting = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  /** Answers are 2xx/4xx with small bodies: wait for the head, then its content-length. */
  private onData(chunk: string): void {
    this.buf += chunk;
    const end = this.buf.indexOf(HEAD_END);
    if (end < 0) return;
    const head = this.buf.slice(0, end);
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buf.length < end + HEAD_END.length + length) return;
    this.buf = this.buf.slice(end + HEAD_END.length + length);
    const status = Number(head.slice(9, 12));
    const w = this.waiting;
    this.waiting = null;
    w?.resolve(status);
  }

  close(): void {
    this.socket.destroy();
  }
}

const pools = new Map<string, Connection[]>();
function poolFor(url: string, n: number): Connection[] {
  const key = `${url} ${n}`;
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = Array.from({ length: n }, () => new Connection(new URL(url)))));
  return pool;
}

async function run(job: SendJob): Promise<SendReply> {
  const pool = poolFor(job.url, job.concurrency);
  const sentAt: Record<string, number> = {};
  let failures = 0;
  let next = 0;
  const worker = async (conn: Connection) => {
    while (next < job.items.length) {
      const item = job.items[next++]!;
      sentAt[item.key] = wallMs();
      try {
        const status = await conn.post(item.body);
        if (status < 200 || status >= 300) failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(pool.map(worker));
  return { id: job.id, sentAt, failures };
}

process.on('message', (job: SendJob) => {
  void run(job).then((reply) => process.send?.(reply));
});
process.on('disconnect', () => {
  for (const pool of pools.values()) pool.forEach((c) => c.close());
  process.exit(0);
});
