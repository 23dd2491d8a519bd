export { Store, openStore, type EventDateFilter, type NewAlert } from './store.js';
export { StoreError } from './errors.js';
export type { OpenOptions } from './open.js';
export { htmlToText, escapeHtml, toFtsQuery } from './html-text.js';
