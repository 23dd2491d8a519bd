/** How a relay refused a stream: the consumer waits differently for each. */
export const TOKEN_REJECTED = 'relay rejected the token';

/** 401/403: a wrong token will not fix itself quickly (retried much more slowly). */
export class TokenRejected extends Error {
  constructor() {
    super(TOKEN_REJECTED);
  }
}

/** A relay that answers but refuses the stream; its Retry-After (if any) sets the wait. */
export class RelayRefused extends Error {
  constructor(
    status: number,
    readonly retryAfterMs: number | null,
  ) {
    super(`the relay answered HTTP ${status}`);
  }
}
