/** `npm run relay -- --help`: every relay command and where its secrets come from. */
export const USAGE = `Usage:
  npm run relay -- [--port N] [--host H] [--data DIR] [--retention-days D] [--token-rate N]
                    [--redis redis://HOST:PORT/DB] [--redis-durability strict|aof-always|relaxed]
                    [--auth-url URL] [--calendar-url URL] [--news-url URL] [--public-url URL]
                    [--issue-service-tokens] [--max-streams-per-user N] [--alert-lead-minutes N]
    (--issue-service-tokens: POST /token hands traders service access tokens, which reach
     the whole service account, webhook management included; off: traders read through
     the relay's gateway at /service/calendar and /service/news)
    (--public-url: the relay's address as users reach it, for calendar feed links)
    (--alert-lead-minutes: desk chat alerts, to MACROBELL_DESK_ALERT_WEBHOOK, a Slack-compatible URL)
    (--redis or MACROBELL_RELAY_REDIS: the log on Redis Streams, shared by several nodes)
                    [--redis-password-file FILE] [--redis-ca CA.pem]
    Redis credentials, never in argv: MACROBELL_REDIS_PASSWORD (or --redis-password-file /
    MACROBELL_REDIS_PASSWORD_FILE), MACROBELL_REDIS_USERNAME for an ACL user;
    rediss:// for TLS, --redis-ca / MACROBELL_REDIS_CA for a private CA
  npm run relay -- register --public-url https://relay.example.com [--calendar] [--news]
                    [--replace <id>] [--data DIR] [--auth-url URL] [--calendar-url URL] [--news-url URL]
    (asks the running relay first: a secret its nodes answer 404 is never registered; --unchecked skips it)
  npm run relay -- users add NAME | users list | users revoke NAME   [--data DIR] [--redis URL]
    (with --redis or MACROBELL_RELAY_REDIS: the users every node on that Redis shares)
  npm run relay -- nodes forget NAME --redis URL   (a retired node leaves the admin page; it must have stopped)
  npm run relay -- store accept-loss --redis URL   (after restoring Redis that came back empty or older)
  npm run relay -- admins add NAME | admins list | admins revoke NAME  [--data DIR] [--redis URL]
  npm run relay -- status [--url URL | --data DIR]   (MACROBELL_ADMIN_TOKEN: an admin token)
  npm run relay -- log [--since 2h|ISO] [--until ISO] [--url URL | --data DIR]   (what arrived, applied by how many)
  npm run relay -- log --user NAME [--grep TEXT] [--since 1d|ISO] [--until ISO] …   (each print at each of its desktops, and when)
  npm run relay -- replay --user NAME --since 2h|ISO [--until ISO] [--url URL | --data DIR]   (re-send to one trader)
    (the relay asked: --url, else MACROBELL_RELAY_URL, else the URL the relay running with that
     data folder (default relay-data) wrote at start into DIR/relay-url, else http://127.0.0.1:8787)
  npm run relay -- keys set [--data DIR]        (keys from the environment or two lines of stdin)
  npm run relay -- secrets show [--data DIR]
  npm run relay -- backup --to FOLDER [--data DIR]   (SQLite node: relay.db online, secrets, keys, feed key)
  npm run relay -- restore --from FOLDER [--data DIR]   (into a folder with no relay.db, relay stopped)
  npm run relay -- backup --redis URL --to FOLDER [--data DIR]   (Redis desk: every relay key, as the operator's ACL user)
  npm run relay -- restore --from FOLDER --redis URL [--data DIR] [--force] | --files-only --data DIR
    (into a store with no relay key, nodes stopped; --force replaces them; --files-only: a node's files)
  npm run relay -- rotate-secret --public-url https://relay.example.com [--data DIR] [--redis URL] [service URLs]
    (with --redis every node on that Redis accepts the new secret, whatever its environment says)
  Provider keys: MACROBELL_PUBLIC_KEY, MACROBELL_PRIVATE_KEY (never argv), else DATA/provider-keys.json
  Service URLs: the flags, else MACROBELL_AUTH_URL, MACROBELL_CALENDAR_URL, MACROBELL_NEWS_URL
  Secrets: MACROBELL_RELAY_SECRET (new,old during a rotation), MACROBELL_RELAY_TOKEN (else generated into DATA/relay-secrets.json)
  npm run relay -- --help   (this text)`;
