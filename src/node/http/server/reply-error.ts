/**
 * An error a server route throws to answer the client: its status, a snake_case code, a
 * one-line message, extra headers (Allow, Retry-After…) and, rarely, a body of its own
 * shape (the OAuth endpoint's `{error, error_description}`). Anything else a route throws
 * is a bug and answers a generic 500.
 */
export class ReplyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ReplyError';
  }
}
