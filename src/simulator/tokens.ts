/** The OAuth 2.0 client-credentials token endpoint (RFC 6749 §4.4, errors per §5.2). */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ReplyError } from '../node/http/server/reply-error.js';
import { readBody } from '../node/http/server/body.js';
import type { SimulatorState } from './state.js';

export type Scope = 'calendar' | 'news';

interface Issued {
  token: string;
  scope: Scope;
  expiresAt: number;
}

export class TokenIssuer {
  private readonly byToken = new Map<string, Issued>();
  private readonly byClientScope = new Map<string, Issued>();

  constructor(
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly lifetimeSec: number,
    private readonly state: SimulatorState,
    private readonly now: () => number = Date.now,
  ) {}

  async handle(
    req: IncomingMessage,
  ): Promise<{ access_token: string; token_type: string; expires_in: number }> {
    this.state.tokenRequests++;
    const fault = this.state.faults.token;
    if (fault && (fault.count ?? 1) > 0) {
      if (fault.count !== undefined) fault.count--;
      if (fault.count === 0) delete this.state.faults.token;
      throw oauth(fault.status, fault.error, 'Injected fault');
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    const raw = await readBody(req);
    if (type !== 'application/x-www-form-urlencoded') {
      throw oauth(400, 'invalid_request', 'The request must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(raw.toString('utf8'));
    for (const p of ['grant_type', 'client_id', 'client_secret', 'scope']) {
      if (!form.get(p)) throw oauth(400, 'invalid_request', `Missing parameter: ${p}`);
    }
    if (form.get('grant_type') !== 'client_credentials') {
      throw oauth(400, 'unsupported_grant_type', 'Only client_credentials is supported');
    }
    if (
      form.get('client_id') !== this.clientId ||
      form.get('client_secret') !== this.clientSecret
    ) {
      throw oauth(401, 'invalid_client', 'Client authentication failed', {
        'www-authenticate': 'Basic realm="token"',
      });
    }
    const scope = form.get('scope');
    if (scope !== 'calendar' && scope !== 'news')
      throw oauth(400, 'invalid_scope', `Unknown scope: ${scope}`);
    return this.issue(scope);
  }

  private issue(scope: Scope) {
    this.state.tokensIssued[scope]++;
    const now = this.now();
    const key = `${this.clientId}:${scope}`;
    let issued = this.byClientScope.get(key);
    if (!issued || issued.expiresAt <= now) {
      const lifetime = this.state.faults.tokenLifetimeSec ?? this.lifetimeSec;
      issued = {
        token: randomBytes(24).toString('base64url'),
        scope,
        expiresAt: now + lifetime * 1000,
      };
      this.byClientScope.set(key, issued);
      this.byToken.set(issued.token, issued);
    }
    return {
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: Math.max(0, Math.floor((issued.expiresAt - now) / 1000)),
    };
  }

  /** Check `Authorization: Bearer …` for a scope: 401 invalid/expired, 403 other scope. */
  authorize(header: string | undefined, scope: Scope): void {
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!m) throw bearer(401, 'invalid_request', 'Missing bearer token');
    const issued = this.byToken.get(m[1] as string);
    if (!issued || issued.expiresAt <= this.now())
      throw bearer(401, 'invalid_token', 'The access token is invalid or expired');
    if (issued.scope !== scope)
      throw bearer(403, 'insufficient_scope', `This token is for the ${issued.scope} API`);
  }

  expireAll(): void {
    this.byToken.clear();
    this.byClientScope.clear();
  }
}

function oauth(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): ReplyError {
  return new ReplyError(
    status,
    error,
    description,
    { 'cache-control': 'no-store', ...headers },
    { error, error_description: description },
  );
}

function bearer(status: number, error: string, description: string): ReplyError {
  return new ReplyError(
    status,
    error,
    description,
    { 'www-authenticate': `Bearer error="${error}"` },
    { error, error_description: description },
  );
}
