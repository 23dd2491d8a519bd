/** The relay's Redis keys (one hash slot) and the Lua scripts that keep its writes atomic. */

export const PREFIX = 'macrobell:{relay}:'; // one hash slot, so the script's keys may be used together
export const STREAM = `${PREFIX}events`;
/**
 * A batch of appends in one call: for each body, if its hash was seen within the window,
 * the id it got; else XADD it and remember the hash with that id — atomically, so the HA
 * pair's two copies (and a retry, and a duplicate within the batch) are stored once.
 * KEYS: stream, then one dedup key per body. ARGV: window ms, received at, then
 * (type, body, headers) per body. Returns the ids in order.
 */
export const APPEND_BATCH_SCRIPT = `
local ids = {}
for i = 2, #KEYS do
  local existing = redis.call('GET', KEYS[i])
  if existing then
    ids[#ids + 1] = existing
  else
    local a = 3 * (i - 2) + 3
    local id = redis.call('XADD', KEYS[1], '*', 't', ARGV[2], 'type', ARGV[a], 'body', ARGV[a + 1], 'h', ARGV[a + 2])
    redis.call('SET', KEYS[i], id, 'PX', ARGV[1])
    ids[#ids + 1] = id
  end
end
return ids`;

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
