/** Shared helpers for the simulator's integration tests: real HTTP on 127.0.0.1 only. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
export { waitFor } from '../../support/wait.js';
import { simulatorToken } from '../../support/simulator-token.js';
import {
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../../src/simulator/index.js';

/** A fixed scenario start so data is the same on every run. */
export const T0 = Date.parse('2026-03-10T12:00:00Z');

export function start(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ seed: 42, now: T0, autoplay: false, log: () => {}, ...opts });
}

/** A service token from the simulator (test/support/simulator-token.ts). */
export const token = simulatorToken;

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = unknown>(
  url: string,
  init: {
    method?: string;
    token?: string;
    json?: unknown;
    headers?: Record<string, string>;
    body?: string;
  } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** The control API. */
export function control<T = unknown>(
  sim: RunningSimulator,
  method: string,
  path: string,
  json?: unknown,
): Promise<JsonResponse<T>> {
  return call<T>(`${sim.url}/_sim${path}`, { method, json });
}

export interface Received {
  body: unknown;
  contentType: string | undefined;
}

/** A small webhook receiver on 127.0.0.1:0 that answers with `status()` (default 204). */
export async function receiver(status: () => number = () => 204) {
  const received: Received[] = [];
  let answer = status;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the raw text
      }
      received.push({ body, contentType: req.headers['content-type'] });
      const code = answer();
      if (code < 0) return; // never answer: the sender's timeout must fire
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    setStatus(fn: () => number) {
      answer = fn;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
