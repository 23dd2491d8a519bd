/**
 * Where a running relay can be reached, for `relay status / log / replay` on the same machine:
 * the relay writes its listen URL into `DATA/relay-url` at start, the ops commands read it
 * from the `--data` folder they are given (wildcard hosts are written as loopback). It is
 * 0600 like the relay's other files (a file left by an older version is narrowed), and kept
 * when the relay stops: the commands then say the relay does not answer at that URL.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RELAY_URL_FILE = 'relay-url';

/** The URL a command on this machine reaches a relay listening on host:port at. */
export function localRelayUrl(host: string, port: number): string {
  const reach = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
}

/** Records the URL; a folder it cannot write into is not a reason to stop the relay. */
export function writeRelayUrl(dataDir: string, url: string): Error | null {
  try {
    const file = join(dataDir, RELAY_URL_FILE);
    writeFileSync(file, `${url}\n`, { mode: 0o600 });
    // `mode` applies only when the file is created.
    chmodSync(file, 0o600);
    return null;
  } catch (err) {
    return err as Error;
  }
}

/** The URL the relay with this data folder last started on, or null (none has, or unreadable). */
export function readRelayUrl(dataDir: string): string | null {
  try {
    const url = readFileSync(join(dataDir, RELAY_URL_FILE), 'utf8').trim();
    return /^https?:\/\/\S+$/.test(url) ? url : null;
  } catch {
    return null;
  }
}
