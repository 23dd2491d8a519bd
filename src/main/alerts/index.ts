export {
  AlertsEngine,
  type AlertsEngineOptions,
  type AlertStore,
  type NewAlert,
  type Timers,
  type UpcomingQuery,
} from './engine.js';
export { decideAlert, dedupKeys } from './decide.js';
export { matchesEventDate, matchesPost, inQuietHours } from './rules.js';
export * from './message.js';
