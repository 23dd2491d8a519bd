/** What every web-host route is handed: the service, the sessions, and where the host runs. */
import type { ServerResponse } from 'node:http';
import type { Route, RouteRequest } from '../../node/http/server/router.js';
import type { MacrobellService } from '../service-contract.js';
import type { PushLog } from './push-log.js';
import type { WebSessions } from './session.js';

export interface WebContext {
  service: Pick<MacrobellService, 'api' | 'on'>;
  sessions: WebSessions;
  /** The built renderer. */
  staticDir: string;
  heartbeatMs: number;
  /** The port listened on (set once listening): session cookies and Host checks name it. */
  port: number;
  /**
   * The secrets only the trader has (the desk personal token, the private key) that renew an
   * expired login link on the login page; null: only the terminal gives new links.
   */
  loginSecrets: (() => Promise<string[]>) | null;
  /** Open push streams, ended when the host closes. */
  streams: Set<ServerResponse>;
  /** The recent pushes with their ids, for the streams and their resumption. */
  pushes: PushLog;
}

export type WebRoute = Route<WebContext>;
export type WebRequest = RouteRequest<WebContext>;
