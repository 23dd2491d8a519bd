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

/**
 * The node ended the stream because it cannot reach its store (`event: unavailable`):
 * another node of the list may, so the consumer moves on at once.
 */
export class RelayCutOff extends Error {
  constructor(reason: string) {
    super(`the relay node cannot reach its store: ${reason}`);
  }
}
