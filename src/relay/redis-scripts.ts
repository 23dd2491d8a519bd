/** The relay's Redis keys (one hash slot) and the Lua scripts that keep its writes atomic. */

export const PREFIX = 'macrobell:{relay}:'; // one hash slot, so the script's keys may be used together
export const STREAM = `${PREFIX}events`;
export const STREAM_ID = /^\d{1,15}-\d{1,15}$/;
/**
 * One append: if the body's hash was seen within the window, the id it got; else XADD it and
 * remember the hash with that id — atomically, so the HA pair's two copies store once.
 */
export const APPEND_SCRIPT = `
local existing = redis.call('GET', KEYS[2])
if existing then return {0, existing} end
local id = redis.call('XADD', KEYS[1], '*', 't', ARGV[2], 'type', ARGV[3], 'body', ARGV[4], 'h', ARGV[5])
redis.call('SET', KEYS[2], id, 'PX', ARGV[1])
return {1, id}`;

/**
 * Retention: the newest id older than the cutoff is remembered (XTRIM does not record it
 * in the stream's max-deleted-entry-id), then XTRIM MINID removes everything before the cutoff.
 */
export const TRIM_SCRIPT = `
local last = redis.call('XREVRANGE', KEYS[1], '(' .. ARGV[1], '-', 'COUNT', 1)
if #last == 0 then return 0 end
redis.call('SET', KEYS[2], last[1][1])
return redis.call('XTRIM', KEYS[1], 'MINID', ARGV[1])`;
export const TRIMMED = `${PREFIX}trimmed_through`;
