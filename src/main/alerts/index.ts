export { AlertsEngine, type AlertsEngineOptions, type AlertStore } from './engine.js';
export { matchesEventDate, matchesPost, inQuietHours } from './rules.js';
export * from './message.js';
