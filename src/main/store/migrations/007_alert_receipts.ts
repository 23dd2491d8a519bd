/**
 * Alert receipts: each alert keeps how it came (path) and when each hop happened, and
 * whether it was a late print (shown without sound).
 */
export default {
  version: 7,
  name: 'alert_receipts',
  up: `
    ALTER TABLE alerts ADD COLUMN late INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE alerts ADD COLUMN receipt TEXT;
  `,
};
