/**
 * One route table for the simulated service: each route is a method, a path pattern and a
 * handler. The same table answers 404 (no pattern matches) and 405 with the `Allow` header
 * (a pattern matches, not with this method), so there is no second list to keep in step.
 *
 * Patterns are literal segments and `:name` parameters; `:name(regex)` constrains one
 * segment. Parameters arrive %-decoded (a malformed escape is a 400).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeSegment, HttpError } from '../http-util.js';
import type { ServerContext } from '../server.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Request {
  ctx: ServerContext;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
}

export interface Route {
  method: Method;
  path: string;
  handle(r: Request): void | Promise<void>;
}

interface Compiled {
  route: Route;
  regex: RegExp;
  names: string[];
}

function compile(route: Route): Compiled {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^:(\w+)(?:\((.+)\))?$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1] as string);
      return `(${param[2] ?? '[^/]+'})`;
    })
    .join('/');
  return { route, regex: new RegExp(`^${source}$`), names };
}

export function methodNotAllowed(allow: string): HttpError {
  return new HttpError(405, 'method_not_allowed', `Use ${allow}`, { allow });
}

export class Router {
  private readonly routes: Compiled[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map(compile);
  }

  /** The route for this method and path, with its parameters; 404 or 405 when none. */
  find(method: string, path: string): { route: Route; params: Record<string, string> } {
    const allowed: string[] = [];
    for (const c of this.routes) {
      const m = c.regex.exec(path);
      if (!m) continue;
      if (c.route.method !== method) {
        allowed.push(c.route.method);
        continue;
      }
      const params: Record<string, string> = {};
      c.names.forEach((name, i) => (params[name] = decodeSegment(m[i + 1] as string)));
      return { route: c.route, params };
    }
    if (allowed.length) throw methodNotAllowed([...new Set(allowed)].join(', '));
    throw new HttpError(404, 'not_found', `No route ${method} ${path}`);
  }
}
