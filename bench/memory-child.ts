/** Child process for the memory figure: a core with a full cache, queried, reports RSS. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/main/store/index.js';
import { fillStore } from './store-bench.js';

const eventDates = Number(process.argv[2] ?? 100_000);
const posts = Number(process.argv[3] ?? 50_000);
const path = join(mkdtempSync(join(tmpdir(), 'mb-bench-mem-')), 'mem.db');
const fill = openStore({ path });
fillStore(fill, eventDates, posts);
fill.close();
// A fresh "app start" on the warm cache: what a user's main process holds.
const store = openStore({ path });
const t0 = Date.UTC(2026, 0, 1);
for (let d = 0; d < 30; d++)
  store.listEventDates({
    from: new Date(t0 + d * 86_400_000).toISOString(),
    to: new Date(t0 + (d + 7) * 86_400_000).toISOString(),
  });
for (const q of ['inflation', 'gold rally', 'central bank']) store.searchPosts({ query: q });
store.listPosts({ page: 1, pageSize: 50 });
global.gc?.();
process.stdout.write(JSON.stringify({ rssMb: process.memoryUsage().rss / 1024 / 1024 }));
store.close();
