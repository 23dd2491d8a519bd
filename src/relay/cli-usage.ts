/** `npm run relay -- --help`: every relay command and where its secrets come from. */
export const USAGE = `Usage:
  npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D] [--token-rate N]
                    [--redis redis://HOST:PORT/DB] [--redis-durability strict|relaxed]
                    [--auth-url URL] [--calendar-url URL] [--news-url URL] [--public-url URL]
    (--public-url: the relay's address as users reach it, for calendar feed links)
    (--redis or MACROBELL_RELAY_REDIS: the log on Redis Streams, shared by several nodes)
                    [--redis-password-file FILE] [--redis-ca CA.pem]
    Redis credentials, never in argv: MACROBELL_REDIS_PASSWORD (or --redis-password-file /
    MACROBELL_REDIS_PASSWORD_FILE), MACROBELL_REDIS_USERNAME for an ACL user;
    rediss:// for TLS, --redis-ca / MACROBELL_REDIS_CA for a private CA
  npm run relay -- register --public-url https://relay.example.com [--calendar] [--news]
                    [--replace <id>] [--data DIR] [--auth-url URL] [--calendar-url URL] [--news-url URL]
  npm run relay -- users add NAME | users list | users revoke NAME   [--data DIR] [--redis URL]
    (with --redis or MACROBELL_RELAY_REDIS: the users every node on that Redis shares)
  npm run relay -- keys set [--data DIR]        (keys from the environment or two lines of stdin)
  npm run relay -- secrets show [--data DIR]
  npm run relay -- rotate-secret --public-url https://relay.example.com [--data DIR] [service URLs]
  Provider keys: MACROBELL_PUBLIC_KEY, MACROBELL_PRIVATE_KEY (never argv), else DATA/provider-keys.json
  Service URLs: the flags, else MACROBELL_AUTH_URL, MACROBELL_CALENDAR_URL, MACROBELL_NEWS_URL
  Secrets: MACROBELL_RELAY_SECRET, MACROBELL_RELAY_TOKEN (else generated into DATA/relay-secrets.json)
  npm run relay -- --help   (this text)`;
