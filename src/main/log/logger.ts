/**
 * Structured JSON logs (pino) with secrets redacted by field path. The app writes to a
 * size-capped file in its data folder (one `.1` backup); tests and the relay to stdout.
 */
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

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
  'authorization',
  'Authorization',
  'relayToken',
  'password',
  'secret',
];
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  'headers.authorization',
  'req.headers.authorization',
  '*.headers.authorization',
];

export interface LoggerOptions {
  file?: string;
  level?: string;
  /** Rotate the file past this size (default 5 MiB). */
  maxBytes?: number;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const base = {
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  if (!opts.file) return pino(base, pino.destination({ fd: 2, sync: false }));
  mkdirSync(dirname(opts.file), { recursive: true });
  rotateIfLarge(opts.file, opts.maxBytes ?? 5 * 1024 * 1024);
  return pino(base, pino.destination({ dest: opts.file, sync: true, mkdir: true }));
}

/** Keep one backup: at start, a log over the cap becomes `.1`. */
export function rotateIfLarge(file: string, maxBytes: number): void {
  if (existsSync(file) && statSync(file).size > maxBytes) renameSync(file, `${file}.1`);
}

/** Replace every known secret value in a text (diagnostics) with a marker. */
export function scrubSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

export const silentLogger = (): Logger => pino({ level: 'silent' });
