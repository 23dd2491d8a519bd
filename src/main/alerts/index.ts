export {
  AlertsEngine,
  type AlertsEngineOptions,
  type AlertStore,
  type NewAlert,
  type UpcomingQuery,
} from './engine.js';
export * from './message.js';
