/** The one route table answers matches, 404s and 405s (with Allow) alike. */
import { describe, expect, it } from 'vitest';
import { ReplyError } from '../../../src/node/http/server/reply-error.js';
import { Router, type Route } from '../../../src/node/http/server/router.js';

const noop = () => undefined;
const routes: Route<null>[] = [
  { method: 'GET', path: '/things', handle: noop },
  { method: 'POST', path: '/things', handle: noop },
  { method: 'DELETE', path: '/things/:id', handle: noop },
  { method: 'GET', path: '/v1/:lang([a-z]{2})/items/:from/:to', handle: noop },
  { method: 'GET', path: '/service/calendar/*rest', handle: noop },
  { method: '*', path: '/hooks/*secret', decode: false, handle: noop },
];
const router = new Router(routes);

const failure = (method: string, path: string): ReplyError => {
  try {
    router.find(method, path);
  } catch (err) {
    if (err instanceof ReplyError) return err;
  }
  throw new Error(`${method} ${path} matched`);
};

describe('router', () => {
  it('finds the route for the method and decodes its parameters', () => {
    const { route, params } = router.find('GET', '/v1/en/items/2026-01-01T00%3A00%3A00Z/x%20y');
    expect(route).toBe(routes[3]);
    expect(params).toEqual({ lang: 'en', from: '2026-01-01T00:00:00Z', to: 'x y' });
    expect(router.find('DELETE', '/things/a%2Fb').params).toEqual({ id: 'a/b' });
  });

  it('answers 405 with every method the path allows, from the same table', () => {
    const err = failure('PUT', '/things');
    expect(err.status).toBe(405);
    expect(err.headers).toEqual({ allow: 'GET, POST' });
  });

  it('answers 404 for a path no route has, or a parameter outside its pattern', () => {
    expect(failure('GET', '/nothing').status).toBe(404);
    expect(failure('GET', '/v1/english/items/a/b').status).toBe(404);
  });

  it('a *rest segment takes the rest of the path, decoded', () => {
    expect(router.find('GET', '/service/calendar/en/api/v1/x%20y').params).toEqual({
      rest: 'en/api/v1/x y',
    });
    expect(failure('GET', '/service/news/x').status).toBe(404);
  });

  it('refuses a malformed %-escape with 400', () => {
    expect(failure('DELETE', '/things/%E0%A4%A').status).toBe(400);
  });

  it('a route of method * takes every method, and decode: false leaves escapes as sent', () => {
    for (const method of ['GET', 'POST', 'OPTIONS'])
      expect(router.find(method, '/hooks/a%2Fb%zz').route).toBe(routes[5]);
    expect(router.find('PUT', '/hooks/a%2Fb%zz').params).toEqual({ secret: 'a%2Fb%zz' });
  });
});
