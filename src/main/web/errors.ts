/**
 * The web host's error catalogue (as fastify's lib/errors.js): every code it answers with,
 * its status and its message, in one place. The router adds `method_not_allowed` (405,
 * with Allow), `not_found` (404) and `invalid_path` (400); the body reader
 * `payload_too_large` (413). Each answer's body is `{ ok: false, error: { error, message } }`
 * (reply.ts).
 */
import { ReplyError } from '../../node/http/server/reply-error.js';

export const webErrors = {
  /** A foreign Origin or Host (CSRF, DNS rebinding): the reason names the header. */
  forbidden: (why: string) => new ReplyError(403, 'forbidden', why),
  unauthorized: () =>
    new ReplyError(
      401,
      'unauthorized',
      'Missing, expired or incomplete session (the cookie alone is not enough).',
    ),
  unknownMethod: (method: string) =>
    new ReplyError(404, 'unknown_method', `Unknown method ${method}`),
  notFound: () => new ReplyError(404, 'not_found', 'Not found'),
  unsupportedMediaType: () => new ReplyError(415, 'unsupported_media_type', 'Send JSON'),
  invalidJson: () => new ReplyError(400, 'invalid_json', 'The body is not valid JSON'),
  /** Anything not thrown on purpose: never its message (it may hold a path or a secret). */
  internal: () =>
    new ReplyError(500, 'internal', 'Something went wrong in Macrobell; see its log.'),
} as const;
