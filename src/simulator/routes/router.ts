/** The simulated service's routes, on the one route table of src/node/http/server. */
import type { Route as HttpRoute, RouteRequest } from '../../node/http/server/router.js';
import type { ServerContext } from '../server.js';

export type Request = RouteRequest<ServerContext>;
export type Route = HttpRoute<ServerContext>;
