/**
 * Child process for the memory figure, run twice: `fill <db> <eventDates> <posts>` writes a
 * full cache; `measure <db>` is a fresh "app start" on that warm cache, queried as the UI
 * does, and reports its RSS — what a user's main process holds, not what writing the cache
 * in one go left behind (the app never fills it in one process).
 */
import { openStore } from '../src/main/store/index.js';
import { fillStore } from './store-bench.js';

const [mode, path, eventDates = '100000', posts = '50000'] = process.argv.slice(2);
if ((mode !== 'fill' && mode !== 'measure') || !path) {
  process.stderr.write('usage: memory-child.ts fill|measure <db> [eventDates] [posts]\n');
  process.exit(2);
}
if (mode === 'fill') {
  const fill = openStore({ path });
  fillStore(fill, Number(eventDates), Number(posts));
  fill.close();
} else {
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
}
