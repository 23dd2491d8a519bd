/**
 * The fan-out benchmark's subscribers, in their own process so that parsing a million
 * frames does not share an event loop with the senders. Started by benchFanout with an
 * IPC channel; argv: <events url[,url…]> <bearer token> <subscribers> <burst> <timeout ms>
 * [<first index>]. With several URLs (relay nodes) the subscribers are dealt over them in
 * turn, by their index across every subscriber process (this one's start at first index).
 *
 * A lean parser on raw TCP connections (no HTTP client): per read, only the bytes up to
 * the last complete frame are scanned for
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
import { connect } from 'node:net';
import { HIST_BASE_MS, HIST_BUCKETS, HIST_GROWTH } from './lib.js';

const [url, token, subsArg, burstArg, timeoutArg, firstArg] = process.argv.slice(2);
const first = Number(firstArg ?? 0);
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
/** Which target (node) each sample came through, for the per-node summaries. */
const sampleNode = new Uint8Array(subscribers * burst);
let delivered = 0;
let duplicates = 0;
let complete = 0;
let malformed = 0;

/** End offset of the last `intAt` (module state: no allocation per number). */
let intEnd = 0;

/** A non-negative integer written in ASCII at `at`; -1 if none. Sets `intEnd`. */
function intAt(b: Buffer, at: number): number {
  let v = 0;
  let i = at;
  for (; i < b.length; i++) {
    const c = b[i] as number;
    if (c < 48 || c > 57) break;
    v = v * 10 + (c - 48);
  }
  intEnd = i;
  return i === at ? -1 : v;
}

/** True if `b` holds `mark` at `at`. */
function hasAt(b: Buffer, at: number, mark: Buffer): boolean {
  if (at + mark.length > b.length) return false;
  for (let k = 0; k < mark.length; k++) if (b[at + k] !== mark[k]) return false;
  return true;
}

const targets = (url as string).split(',').map((u) => {
  const target = new URL(u);
  const request = Buffer.from(
    `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${token}\r\n` +
      'Accept: text/event-stream\r\n\r\n',
  );
  return { port: Number(target.port), host: target.hostname, request };
});
const OK = Buffer.from('HTTP/1.1 200 ');
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One subscriber on a raw TCP connection: the relay's answer is checked for a 200, then
 * the bytes are scanned as they come. The chunked-encoding size lines sit between whole
 * SSE frames (the relay writes whole frames), so they never break a data line; a frame
 * cut by TCP is carried to the next read. Anything unparseable counts as malformed.
 */
function subscribe(index: number): Promise<void> {
  const node = (first + index) % targets.length;
  const target = targets[node] as (typeof targets)[number];
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, target.host);
    const seen = new Uint8Array(burst);
    let got = 0;
    let carry: Buffer | null = null;
    let headersDone = false;
    socket.on('connect', () => socket.write(target.request));
    socket.on('data', (chunk: Buffer) => {
      const at = clock();
      let buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
      if (!headersDone) {
        const h = buf.indexOf(HEAD_END);
        if (h < 0) {
          carry = buf;
          return;
        }
        if (!hasAt(buf, 0, OK)) {
          socket.destroy();
          return reject(new Error(`/events answered ${buf.subarray(0, 40).toString('latin1')}`));
        }
        headersDone = true;
        buf = buf.subarray(h + 4);
        resolve();
      }
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
        const t = hasAt(buf, intEnd, T_MARK) ? intAt(buf, intEnd + T_MARK.length) : -1;
        pos = intEnd;
        if (n < 0 || n >= burst || t < 0) {
          malformed++;
          continue;
        }
        if (seen[n]) {
          duplicates++;
          continue;
        }
        seen[n] = 1;
        delivered++;
        sampleNode[samples] = node;
        latencies[samples++] = at - t / 1000;
        if (++got === burst) complete++;
      }
    });
    socket.on('error', reject);
  });
}

const cpuTotal = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

type Summary = { n: number; p50: number; p99: number; max: number; mean: number };

/** Every sample, or only those through one node. */
function summary(node?: number): Summary {
  const all = latencies.subarray(0, samples);
  const s = (
    node === undefined ? all.slice() : all.filter((_, i) => sampleNode[i] === node)
  ).sort();
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

/** Latency buckets (lib.ts), for the parent to merge several processes' samples. */
function histogram(node?: number): number[] {
  const h = new Array<number>(HIST_BUCKETS).fill(0);
  const scale = 1 / Math.log(HIST_GROWTH);
  for (let i = 0; i < samples; i++) {
    if (node !== undefined && sampleNode[i] !== node) continue;
    const v = latencies[i] as number;
    const b = v <= HIST_BASE_MS ? 0 : Math.ceil(Math.log(v / HIST_BASE_MS) * scale);
    h[Math.min(HIST_BUCKETS - 1, b)]++;
  }
  return h;
}

// Connect in waves of 100 so the relay's accept queue is not the thing measured.
let connected = 0;
for (let i = 0; i < subscribers; i += 100) {
  const wave = Math.min(100, subscribers - i);
  await Promise.all(Array.from({ length: wave }, (_, k) => subscribe(i + k)));
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
    byNode: targets.length > 1 ? targets.map((_, k) => summary(k)) : undefined,
    histogram: histogram(),
    histogramByNode: targets.length > 1 ? targets.map((_, k) => histogram(k)) : undefined,
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
