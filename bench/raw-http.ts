/**
 * A load generator's HTTP/1.1 client, lean enough not to be what is measured (wrk's
 * approach): one keep-alive TCP connection, a prepared request written in one go, the
 * answer read by its status line and skipped by its content-length. One request in
 * flight per connection.
 */
import { connect, type Socket } from 'node:net';

const HEAD_END = '\r\n\r\n';

/** One connection; `post` resolves with the status code of the answer. */
export class RawHttpConnection {
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

  /** The server closed it (an idle keep-alive timed out): the pool opens another. */
  get closed(): boolean {
    return this.socket.destroyed;
  }

  /** Resolves once connected (a load generator opens its connections before the clock starts). */
  opened(): Promise<void> {
    if (!this.socket.connecting) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
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
