export {
  ApiInputError,
  NotFoundError,
  ResponseShapeError,
  WebhookLimitError,
} from '../../node/service/errors.js';
