export {
  createApiClients,
  type CalendarClient,
  type NewsClient,
  type WebhookClient,
  type Raw,
  type EventDatesQuery,
} from './clients.js';
export { NotFoundError, ResponseShapeError, WebhookLimitError } from './errors.js';
