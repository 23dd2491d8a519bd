export {
  createApiClients,
  type CalendarClient,
  type NewsClient,
  type WebhookClient,
  type EventDatesQuery,
  type ApiClientOptions,
} from './clients.js';
export { ApiInputError, NotFoundError, ResponseShapeError, WebhookLimitError } from './errors.js';
