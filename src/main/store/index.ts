export { Store, openStore } from './store.js';
export { StoreError } from '../errors.js';
export { htmlToText } from './html-text.js';
