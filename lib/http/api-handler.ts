import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { routeKey, routesOf, type FunctionName, type Route } from '../../infra/routes.ts';
import { authenticateApiKey, requireScope } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { errorHandler } from './error-handler.ts';
import { NotFoundError } from './errors.ts';
import { parseJsonBody } from './json-body.ts';
import { logger } from './logger.ts';
import { requestIdHeader, requestIdOf } from './request-id.ts';
import type { HttpEvent, HttpResult } from './types.ts';

/** What an operation receives: the caller, authorized for the route, and the parsed body. */
export interface ApiRequest {
  event: HttpEvent;
  route: Route;
  requestId: string;
  principal: Principal;
  /** The parsed JSON body for routes that take one; undefined otherwise. */
  body: unknown;
}

export type Operation = (request: ApiRequest) => Promise<HttpResult>;

/**
 * The Lambda handler of one function group of the JSON API. Every request goes through the same
 * steps: request id and standard headers, structured logging, the spec's error object for every
 * failure, API-key authentication, the route's scope check, JSON body parsing, then the operation.
 * Throws at load time unless `operations` implements exactly the routes the table gives `fn`.
 */
export function defineApiHandler(fn: FunctionName, operations: Readonly<Record<string, Operation>>) {
  const routes = new Map(routesOf(fn).map((route) => [routeKey(route), route] as const));
  const missing = [...routes.keys()].filter((key) => !(key in operations));
  const extra = Object.keys(operations).filter((key) => !routes.has(key));
  if (missing.length || extra.length) {
    throw new Error(`Function ${fn} does not match the route table: missing [${missing}], unrouted [${extra}]`);
  }

  return middy<HttpEvent, HttpResult>()
    .use(requestIdHeader())
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(errorHandler())
    .handler(async (event) => {
      const route = routes.get(event.routeKey);
      const operation = operations[event.routeKey];
      if (!route || !operation) throw new NotFoundError('No such endpoint.');
      const requestId = requestIdOf(event);
      logger.appendKeys({ requestId, routeKey: event.routeKey });

      const principal = await authenticateApiKey(event.headers?.authorization);
      logger.appendKeys({ orgId: principal.tenant.orgId, environment: principal.tenant.environment, keyId: principal.keyId });
      requireScope(principal, route.scopes, `${route.method} ${route.path}`);

      const body = route.body ? parseJsonBody(event) : undefined;
      return operation({ event, route, requestId, principal, body });
    });
}

/** A path parameter; a missing one cannot match any resource, so it is a 404. */
export function pathParam(request: ApiRequest, name: string): string {
  const value = request.event.pathParameters?.[name];
  if (value === undefined || value === '') throw new NotFoundError(`The path is missing ${name}.`);
  return value;
}
