/**
 * Domain types shared by every part of Macrobell. Pure: no I/O, no Node, no DOM.
 * Wire shapes follow docs/service-api.md; the app keeps the raw JSON
 * of every record beside these typed views, so unknown fields are never lost.
 */
// One module per seam (calendar, news, alerts, settings, status); this barrel keeps every
// `shared/domain.js` import working.
export * from './domain/calendar.js';
export * from './domain/news.js';
export * from './domain/alerts.js';
export * from './domain/settings.js';
export * from './domain/status.js';
export * from './domain/notification-health.js';
