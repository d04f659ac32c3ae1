import { ApiError, InternalError } from './errors.ts';
import { logger } from './logger.ts';
import { requestIdOf } from './request-id.ts';
import { json } from './response.ts';
import type { HttpMiddleware } from './types.ts';

/**
 * Turns any error into the API's error object (docs/decisions.md#errors-one-object-one-type-per-status).
 * An ApiError answers as itself; anything else is a
 * bug: it is logged with the request id and answered with a 500 that reveals nothing.
 */
export function errorHandler(): HttpMiddleware {
  return {
    onError: (request) => {
      const error = request.error;
      if (error instanceof ApiError) {
        request.response = json(error.status, error.toBody(), error.headers);
        return;
      }
      const requestId = requestIdOf(request.event);
      logger.error('Unhandled error', {
        requestId,
        routeKey: request.event.routeKey,
        error: error instanceof Error ? error : String(error),
      });
      const internal = new InternalError(requestId);
      request.response = json(internal.status, internal.toBody());
    },
  };
}
