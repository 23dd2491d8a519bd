/** Every migration, in order. Add a file, add it here; never edit a shipped one. */
import type { Migration } from '../../../node/sqlite/migrations.js';
import m001 from './001_initial.js';
import m002 from './002_search_and_alerts.js';
import m003 from './003_search_rank.js';
import m004 from './004_typed_columns_prefix_search.js';
import m005 from './005_event_date_columns.js';
import m006 from './006_decode_all_entities.js';
import m007 from './007_alert_receipts.js';
import m008 from './008_plain_news_titles.js';
import m009 from './009_event_precision.js';

export const MIGRATIONS: Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009];
