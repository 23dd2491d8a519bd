/**
 * Child process for the kill-safety test: writes event dates and posts (with their search
 * rows) through the real Store in transactions of 20, printing the count after each commit,
 * until it is killed. Bounded anyway: stops after 200,000 rows.
 */
import { openStore } from '../../../src/main/store/index.js';
import { ed } from './fixtures.js';

const path = process.argv[2];
if (!path) throw new Error('usage: kill-writer.ts <database path>');
const store = openStore({ path });
for (let i = 0; i < 200_000;) {
  store.transaction(() => {
    for (let k = 0; k < 20; k++, i++) {
      store.upsertEventDate(ed(`k${i}`, { lastUpdated: i }), { n: i });
      store.upsertPost(
        {
          id: `p${i}`,
          culture: 'en-US',
          title: `Post ${i} payrolls`,
          summary: null,
          contentHtml: `<p>body ${i}</p>`,
          publicationDate: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
          updateDate: null,
          url: null,
          imageUrl: null,
          authorName: null,
          companyName: null,
          categories: [],
          tags: [],
        },
        {},
      );
    }
  });
  process.stdout.write(`${i}\n`);
}
