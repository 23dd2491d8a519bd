/**
 * The fan-out benchmark's subscribers, in their own process so that parsing a million
 * frames does not share an event loop with the senders. Started by benchFanout with an
 * IPC channel; argv: <events url> <bearer token> <subscribers> <burst> <timeout ms>.
 *
 * A lean parser: per chunk, only the bytes up to the last complete frame are scanned for
 * the data line of a bench webhook (`{"type":"post_created","n":<seq>,"t":<µs>}`); `n`
 * and `t` are read as integers straight from the bytes. `t` is the sender's
 * `performance.timeOrigin + performance.now()` in µs; the receive time is the same clock
 * here, taken once per chunk as it reaches JavaScript. Latencies are kept in a typed
 * array and only their summary goes back over IPC.
 *
 * Messages: → {type:'ready', connected} once every stream is open;
 *   ← {type:'clock'} → {type:'clock', now} (for the parent to bound the clock offset);
 *   → {type:'result', …} when every subscriber has every event, or at the timeout.
 */
import { Agent, request, type IncomingMessage } from 'node:http';

const [url, token, subsArg, burstArg, timeoutArg] = process.argv.slice(2);
const subscribers = Number(subsArg);
const burst = Number(burstArg);
const timeoutMs = Number(timeoutArg);
const send = (m: unknown) => process.send?.(m);
const clock = () => performance.timeOrigin + performance.now();

const MARK = Buffer.from('data: {"type":"post_created","n":');
const T_MARK = Buffer.from(',"t":');
const END = Buffer.from('\n\n');

const latencies = new Float64Array(subscribers * burst);
let samples = 0;
let delivered = 0;
let duplicates = 0;
let complete = 0;
let malformed = 0;

/** A non-negative integer written in ASCII at `at`; -1 if none. */
function intAt(b: Buffer, at: number): { value: number; end: number } {
  let v = 0;
  let i = at;
  for (; i < b.length; i++) {
    const c = b[i] as number;
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
  }
  return { value: i === at ? -1 : v, end: i };
}

function subscribe(agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      url as string,
      { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res: IncomingMessage) => {
        if (res.statusCode !== 200) return reject(new Error(`/events answered ${res.statusCode}`));
        const seen = new Uint8Array(burst);
        let got = 0;
        let carry: Buffer | null = null;
        res.on('data', (chunk: Buffer) => {
          const at = clock();
          const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
          const lastEnd = buf.lastIndexOf(END);
          if (lastEnd < 0) {
            carry = buf;
            return;
          }
          carry = lastEnd + 2 < buf.length ? buf.subarray(lastEnd + 2) : null;
          let pos = 0;
          for (let guard = 0; guard < 1_000_000; guard++) {
            const i = buf.indexOf(MARK, pos);
            if (i < 0 || i > lastEnd) break;
            const n = intAt(buf, i + MARK.length);
            const ti = buf.indexOf(T_MARK, n.end);
            const t = ti === n.end ? intAt(buf, ti + T_MARK.length) : { value: -1, end: n.end };
            pos = t.end;
            if (n.value < 0 || n.value >= burst || t.value < 0) {
              malformed++;
              continue;
            }
            if (seen[n.value]) {
              duplicates++;
              continue;
            }
            seen[n.value] = 1;
            delivered++;
            latencies[samples++] = at - t.value / 1000;
            if (++got === burst) complete++;
          }
        });
        res.on('error', () => undefined);
        resolve();
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const cpuTotal = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

function summary(): { n: number; p50: number; p99: number; max: number; mean: number } {
  const s = latencies.subarray(0, samples).sort();
  const pick = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  let sum = 0;
  for (const v of s) sum += v;
  return {
    n: s.length,
    p50: pick(0.5) ?? NaN,
    p99: pick(0.99) ?? NaN,
    max: s[s.length - 1] ?? NaN,
    mean: s.length ? sum / s.length : NaN,
  };
}

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
// Connect in waves of 100 so the relay's accept queue is not the thing measured.
let connected = 0;
for (let i = 0; i < subscribers; i += 100) {
  const wave = Math.min(100, subscribers - i);
  await Promise.all(Array.from({ length: wave }, () => subscribe(agent)));
  connected += wave;
}
send({ type: 'ready', connected });

let finished = false;
let cpuAtStart: NodeJS.CpuUsage | undefined;
const finish = () => {
  if (finished) return;
  finished = true;
  send({
    type: 'result',
    delivered,
    expected: subscribers * burst,
    complete,
    duplicates,
    malformed,
    cpuMs: cpuAtStart ? cpuTotal(process.cpuUsage(cpuAtStart)) : NaN,
    latency: summary(),
  });
  process.disconnect?.();
  setTimeout(() => process.exit(0), 100).unref();
};

process.on('message', (m: { type?: string }) => {
  if (m.type === 'clock') send({ type: 'clock', now: clock() });
  if (m.type === 'start') {
    cpuAtStart = process.cpuUsage();
    const deadline = Date.now() + timeoutMs;
    const poll = setInterval(() => {
      if (complete === subscribers || Date.now() > deadline) {
        clearInterval(poll);
        finish();
      }
    }, 5);
  }
});
process.on('disconnect', () => process.exit(0));
