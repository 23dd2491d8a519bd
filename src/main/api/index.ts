export { createApiClients } from './clients.js';
export { ApiInputError, NotFoundError, ResponseShapeError, WebhookLimitError } from './errors.js';
