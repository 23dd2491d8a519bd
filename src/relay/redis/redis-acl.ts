/**
 * The least a Redis ACL user needs to run the relay (docs/relay.md gives the full line):
 * its keys only (one prefix), no pub/sub, and only the commands the relay sends — the
 * log, the desk's users, calendar feeds and desk operations (presence, admins, alerts,
 * replay requests on their control stream),
 * the durability check and the connection's
 * own housekeeping. A test runs a whole relay under exactly this.
 */
export const RELAY_ACL_RULES = [
  'resetkeys',
  '~macrobell:{relay}:*',
  'resetchannels',
  '-@all',
  // connection and the durability check (INFO persistence/replication/commandstats). No
  // CONFIG: `CONFIG GET` cannot be narrowed to some settings and would read `masterauth`;
  // the operator states the fsync policy instead (--redis-durability aof-always).
  '+ping', '+info', '+select', '+client|setname', '+wait',
  // scripts (ioredis sends EVALSHA, then EVAL when the script is not cached)
  '+evalsha', '+eval', '+script|load',
  // keys the scripts and the relay touch
  '+get', '+set', '+del', '+exists', '+expire',
  '+hget', '+hset', '+hsetnx', '+hdel', '+hexists', '+hgetall', '+hkeys',
  '+sadd', '+srem', '+smembers', '+multi', '+exec',
  '+xadd', '+xrange', '+xrevrange', '+xread', '+xinfo|stream', '+xlen', '+xtrim',
].join(' '); // prettier-ignore

/** The operator's ACL user in deploy/redis.acl.example (its password: CHANGE-ME-OPERATOR). */
export const OPERATOR_ACL_USER = 'macrobell-operator';

/**
 * What an operator of the desk's Redis needs and no more: the fsync policy (`CONFIG
 * GET/SET appendfsync`, `BGREWRITEAOF`, `INFO`) and `relay backup` / `relay restore` of the
 * relay's keys (SCAN, TYPE, PTTL, DUMP, RESTORE, DEL, XLEN to check the stream) — on the
 * relay's prefix only. Not given to the nodes: `CONFIG GET` reads every setting, and
 * `CONFIG SET` can point Redis's files anywhere its user can write.
 */
export const OPERATOR_ACL_RULES = [
  'resetkeys',
  '~macrobell:{relay}:*',
  'resetchannels',
  '-@all',
  '+ping', '+info', '+select',
  '+config|get', '+config|set', '+bgrewriteaof',
  '+scan', '+type', '+pttl', '+dump', '+restore', '+del', '+exists', '+xlen',
].join(' '); // prettier-ignore

/**
 * The default user's line: off (no connection can log in as it: off, and no password) but
 * keeping the permissions Redis gives it. Redis (7.0–7.4; redis/redis#14541, fixed upstream
 * by #14545, valkey-io/valkey#3983) replays its append-only file as the default user and
 * checks each MULTI/EXEC block against that user's permissions: with a bare
 * `user default off` every transaction the relay's scripts propagated is refused at load
 * (`-NOPERM ACLs rules changed …`) and the stream, the traders and the admins are gone
 * after a restart. test/integration/relay/redis-aof-replay.test.ts proves both lines.
 */
export const DEFAULT_USER_ACL_LINE = 'user default off resetpass ~* &* +@all';
