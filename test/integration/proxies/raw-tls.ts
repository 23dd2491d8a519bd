/** Raw requests over TLS to a proxy on loopback: exact bytes, malformed ones included. */
import { connect } from 'node:tls';

/** Sends `head` (and `body`), resolves with the status (0 if none) once the proxy closes or answers. */
export function rawRequest(
  port: number,
  head: string,
  body?: Buffer,
  /** Hang up once sent (a client that gives up mid-body). */
  hangUp = false,
): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({
      port,
      host: '127.0.0.1',
      rejectUnauthorized: false,
      servername: 'relay.test',
    });
    let text = '';
    const done = () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0));
    // A bound, not a wait: a proxy that never answers counts as no answer (0).
    socket.setTimeout(10_000, () => socket.destroy());
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
      if (/\r\n\r\n/.test(text)) {
        socket.destroy();
        done();
      }
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.on('secureConnect', () => {
      socket.write(head, 'latin1');
      if (hangUp) return void socket.write(body ?? '', () => socket.destroy());
      if (body) socket.write(body);
    });
  });
}

export const request = (
  port: number,
  method: string,
  path: string,
  opts: { body?: Buffer; headers?: string[] } = {},
): Promise<number> =>
  rawRequest(
    port,
    `${method} ${path} HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n` +
      (opts.body
        ? `Content-Type: application/json\r\nContent-Length: ${opts.body.length}\r\n`
        : '') +
      (opts.headers ?? []).map((h) => `${h}\r\n`).join('') +
      '\r\n',
    opts.body,
  );
