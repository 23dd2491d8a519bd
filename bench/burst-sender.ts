/**
 * The fan-out benchmark's senders, in their own process: `connections` keep-alive raw TCP
 * connections POST `count` webhooks, one request in flight per connection, as fast as the
 * relay answers. Requests are preformatted bytes and answers are checked by their status
 * line only (a 204 has no body; anything else is counted as a failure and its body
 * skipped by content-length) — a load generator lean enough not to be what is measured.
 * Each body carries `n` and its send time `t` (µs, `performance.timeOrigin +
 * performance.now()`, the clock the subscriber process also reads).
 * argv: <webhook url> <count> <connections>. IPC: ← {type:'clock'} → {type:'clock', now};
 * ← {type:'start'} → {type:'sent', acked, failures, ms, cpuMs}.
 */
import { connect, type Socket } from 'node:net';

const [urlArg, countArg, connArg] = process.argv.slice(2);
const url = new URL(urlArg as string);
const count = Number(countArg);
const connections = Number(connArg);
const send = (m: unknown) => process.send?.(m);
const clock = () => performance.timeOrigin + performance.now();

const HEAD = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: `;
const STATUS_204 = Buffer.from('HTTP/1.1 204 ');
const END = Buffer.from('\r\n\r\n');

let next = 0;
let acked = 0;
let failures = 0;

function contentLength(head: Buffer): number {
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(head.toString('latin1'));
  return m ? Number(m[1]) : 0;
}

/** One connection, opened now; `start` sends, awaits the answer, sends the next… */
function connection(): Promise<{ start: () => Promise<void> }> {
  return new Promise((ready, fail) => {
    const socket: Socket = connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let buf: Buffer = Buffer.alloc(0);
    let finished: () => void = () => undefined;
    const done = new Promise<void>((r) => (finished = r));
    const fire = () => {
      if (next >= count) {
        socket.end();
        return finished();
      }
      const n = next++;
      const body = `{"type":"post_created","n":${n},"t":${Math.round(clock() * 1000)}}`;
      socket.write(`${HEAD}${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    socket.once('connect', () => ready({ start: () => (fire(), done) }));
    socket.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      for (let guard = 0; guard < 1000; guard++) {
        const end = buf.indexOf(END);
        if (end < 0) return;
        const head = buf.subarray(0, end + 4);
        const ok = head.subarray(0, STATUS_204.length).equals(STATUS_204);
        const skip = ok ? 0 : contentLength(head);
        if (buf.length < end + 4 + skip) return;
        buf = buf.subarray(end + 4 + skip);
        if (ok) acked++;
        else failures++;
        fire();
      }
    });
    socket.on('error', (err) => {
      failures++;
      fail(err);
      finished();
    });
    socket.on('close', () => finished());
  });
}

const conns = await Promise.all(Array.from({ length: connections }, connection));
process.on('message', (m: { type?: string }) => {
  if (m.type === 'clock') send({ type: 'clock', now: clock() });
  if (m.type === 'start') {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    void Promise.all(conns.map((c) => c.start())).then(() => {
      const u = process.cpuUsage(cpu);
      send({
        type: 'sent',
        acked,
        failures,
        ms: performance.now() - t0,
        cpuMs: (u.user + u.system) / 1000,
      });
    });
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
