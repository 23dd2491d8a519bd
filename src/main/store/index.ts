export { Store, openStore, type StoreOptions } from './store.js';
export type { EventDateFilter } from './event-date-query.js';
export { StoreError } from './errors.js';
export type { OpenOptions } from './open.js';
export { htmlToText, escapeHtml, toFtsQuery } from './html-text.js';
