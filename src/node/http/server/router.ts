/**
 * One route table per server: each route is a method, a path pattern and a handler. The
 * same table answers 404 (no pattern matches) and 405 with `Allow` (a pattern matches, not
 * with this method), so there is no second list to keep in step. Each server passes its own
 * context (`C`) to every handler.
 *
 * Patterns are literal segments and `:name` parameters; `:name(regex)` constrains one
 * segment; a last segment `*name` takes the rest of the path. Parameters arrive %-decoded
 * (a malformed escape is a 400), unless the route says `decode: false` (a proxy that
 * forwards the path as sent, or a route whose own answer to a bad escape is a 404).
 * Method `*` takes every method: for a route that checks something (a secret, a token)
 * before it says which methods it allows, or that mounts a part with routes of its own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReplyError } from './reply-error.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteRequest<C> {
  ctx: C;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
}

export interface Route<C> {
  method: Method | '*';
  path: string;
  /** false: parameters as sent, %-escapes and all (default true). */
  decode?: boolean;
  handle(r: RouteRequest<C>): void | Promise<void>;
}

interface Compiled<C> {
  route: Route<C>;
  regex: RegExp;
  names: string[];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile<C>(route: Route<C>): Compiled<C> {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const rest = /^\*(\w+)$/.exec(segment);
      if (rest) {
        names.push(rest[1] as string);
        return '(.*)';
      }
      const param = /^:(\w+)(?:\((.+)\))?$/.exec(segment);
      if (!param) return escapeRegex(segment);
      names.push(param[1] as string);
      return `(${param[2] ?? '[^/]+'})`;
    })
    .join('/');
  return { route, regex: new RegExp(`^${source}$`), names };
}

/** Decode one path segment; a malformed escape is the client's mistake (400), not ours. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ReplyError(400, 'invalid_path', 'The path has a malformed %-escape');
  }
}

export function methodNotAllowed(allow: string): ReplyError {
  return new ReplyError(405, 'method_not_allowed', `Use ${allow}`, { allow });
}

export class Router<C> {
  private readonly routes: Compiled<C>[];

  constructor(routes: readonly Route<C>[]) {
    this.routes = routes.map(compile);
  }

  /** The route for this method and path, with its parameters; 404 or 405 when none. */
  find(method: string, path: string): { route: Route<C>; params: Record<string, string> } {
    const allowed: string[] = [];
    for (const c of this.routes) {
      const m = c.regex.exec(path);
      if (!m) continue;
      if (c.route.method !== method && c.route.method !== '*') {
        allowed.push(c.route.method);
        continue;
      }
      const params: Record<string, string> = {};
      const decode = c.route.decode === false ? (v: string) => v : decodeSegment;
      c.names.forEach((name, i) => (params[name] = decode(m[i + 1] as string)));
      return { route: c.route, params };
    }
    if (allowed.length) throw methodNotAllowed([...new Set(allowed)].join(', '));
    throw new ReplyError(404, 'not_found', `No route ${method} ${path}`);
  }
}
