/**
 * The one logger of the app and the relay: structured JSON (pino) with secrets redacted by
 * field path, one list for both (the relay holds the provider keys, the webhook secret and
 * every trader's token, so it needs the list at least as much as the app). The app writes
 * to a size-capped file in its data folder (one `.1` backup); tests and the relay to stdout.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

/** Field names whose values are secrets wherever they appear (top level or one level down). */
const SECRET_KEYS = [
  'privateKey',
  'publicKey',
  'client_secret',
  'client_id',
  'clientSecret',
  'clientId',
  'token',
  'access_token',
  'accessToken',
  'refresh_token',
  'authorization',
  'Authorization',
  'relayToken',
  'password',
  'secret',
  'webhookSecret',
  'adminToken',
  'feedToken',
  'sessionToken',
  'cookie',
  'Cookie',
  'set-cookie',
];
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  'headers.authorization',
  'req.headers.authorization',
  '*.headers.authorization',
  'headers.cookie',
  'req.headers.cookie',
  '*.headers.cookie',
  'res.headers["set-cookie"]',
];

export interface LoggerOptions {
  /** Append to this file, rotated past `maxBytes` (one `.1` backup kept). */
  file?: string;
  level?: string;
  /** Also (or, without a file, instead of stderr) write to stdout. */
  stdout?: boolean;
  /** Rotate the file past this size (default 5 MiB). */
  maxBytes?: number;
  /** Fields on every line, e.g. `{ name: 'macrobell-relay' }`. */
  base?: Record<string, unknown>;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const base = {
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...(opts.base ? { base: opts.base } : {}),
  };
  const streams: DestinationStream[] = [];
  if (opts.file) streams.push(new CappedFile(opts.file, opts.maxBytes ?? 5 * 1024 * 1024));
  if (opts.stdout) streams.push(pino.destination({ fd: 1, sync: true }));
  if (streams.length === 0) return pino(base, pino.destination({ fd: 2, sync: false }));
  if (streams.length === 1) return pino(base, streams[0]);
  return pino(base, pino.multistream(streams.map((stream) => ({ stream, level: base.level }))));
}

/** Keep one backup: a log over the cap becomes `.1` (replacing the previous backup). */
export function rotateIfLarge(file: string, maxBytes: number): void {
  if (existsSync(file) && statSync(file).size > maxBytes) renameSync(file, `${file}.1`);
}

/**
 * A synchronous append-only file that rotates itself once it passes the cap, so a tray
 * app running for weeks never grows its log without bound. Log volume is small: sync
 * writes keep the last lines on disk even if the process dies.
 */
class CappedFile implements DestinationStream {
  private fd: number;
  private size: number;

  constructor(
    private readonly file: string,
    private readonly maxBytes: number,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    rotateIfLarge(file, maxBytes);
    this.fd = openSync(file, 'a');
    this.size = statSync(file).size;
  }

  write(line: string): void {
    const bytes = Buffer.from(line, 'utf8');
    if (this.size > 0 && this.size + bytes.length > this.maxBytes) {
      closeSync(this.fd);
      renameSync(this.file, `${this.file}.1`);
      this.fd = openSync(this.file, 'a');
      this.size = 0;
    }
    writeSync(this.fd, bytes);
    this.size += bytes.length;
  }
}

export { scrubSecrets } from './scrub.js';

export const silentLogger = (): Logger => pino({ level: 'silent' });
