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
import { RawHttpConnection } from './raw-http.js';

const [urlArg, countArg, connArg] = process.argv.slice(2);
const url = new URL(urlArg as string);
const count = Number(countArg);
const connections = Number(connArg);
const send = (m: unknown) => process.send?.(m);
const clock = () => performance.timeOrigin + performance.now();

let next = 0;
let acked = 0;
let failures = 0;

const conns = Array.from({ length: connections }, () => new RawHttpConnection(url));
await Promise.all(conns.map((c) => c.opened()));

/** One connection: send, await the answer, send the next, until the burst is out. */
async function drive(conn: RawHttpConnection): Promise<void> {
  while (next < count) {
    const n = next++;
    const body = `{"type":"post_created","n":${n},"t":${Math.round(clock() * 1000)}}`;
    try {
      if ((await conn.post(body)) === 204) acked++;
      else failures++;
    } catch {
      failures++;
    }
  }
  conn.close();
}

process.on('message', (m: { type?: string }) => {
  if (m.type === 'clock') send({ type: 'clock', now: clock() });
  if (m.type === 'start') {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    void Promise.all(conns.map(drive)).then(() => {
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
