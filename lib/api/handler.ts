import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { routeKey, routesOf, type FunctionName, type Route } from './routes.ts';
import { authenticateApiKey, requireScope } from '../auth/authenticate.ts';
import type { ApiKeyPrincipal, Principal, SessionPrincipal } from '../auth/principal.ts';
import { anonymousRateLimit } from '../auth/anonymous-rate-limit.ts';
import { rateLimit } from '../auth/rate-limit.ts';
import { authenticateSession, hasSessionCookie } from '../auth/session.ts';
import { sessionRateLimit, SessionRateLimitError } from '../auth/session-rate-limit.ts';
import { errorResponses } from '../http/api-errors.ts';
import { NotFoundError, RateLimitError } from '../http/errors.ts';
import { jsonDepthLimit } from '../http/json-depth.ts';
import { captureRawBody, MAX_BODY_BYTES, rawBody } from '../http/raw-body.ts';
import { withIdempotencyKey } from './idempotency.ts';
import { logger } from '../http/logger.ts';
import { requestIdHeader, requestIdOf } from '../http/request-id.ts';
import type { HttpEvent, HttpMiddleware, HttpRequest, HttpResult } from '../http/types.ts';

/** What the operation of a public route (`auth: 'none'`) receives. */
export interface PublicRequest {
  event: HttpEvent;
  route: Route;
  requestId: string;
  /** The parsed JSON body for routes that take one, the raw bytes (a Buffer) for `rawBody` routes; undefined otherwise. */
  body: unknown;
}

/** What an operation receives: the caller, authorized for the route, and the parsed body. */
export interface ApiRequest extends PublicRequest {
  principal: Principal;
}

export type Operation = (request: ApiRequest) => Promise<HttpResult>;

/** The operation of a public route, marked as such with `publicOperation`. */
export interface PublicOperation {
  readonly public: true;
  run(request: PublicRequest): Promise<HttpResult>;
}

/** Marks an operation as one of a public route: it gets no principal, and the table must say `auth: 'none'`. */
export const publicOperation = (run: PublicOperation['run']): PublicOperation => ({ public: true, run });

/** The operation of a route with `auth: 'optional'`: the caller's principal when it sent credentials, else none. */
export interface OptionalOperation {
  readonly optional: true;
  run(request: PublicRequest & { principal?: Principal }): Promise<HttpResult>;
}

/** Marks an operation as one of a route whose credentials are optional (the table must say `auth: 'optional'`). */
export const optionalOperation = (run: OptionalOperation['run']): OptionalOperation => ({ optional: true, run });

type AnyOperation = Operation | PublicOperation | OptionalOperation;

const isPublic = (operation: AnyOperation): operation is PublicOperation => 'public' in operation;
const isOptional = (operation: AnyOperation): operation is OptionalOperation => 'optional' in operation;

/** Headers a request earned after authentication (the rate limit's), for its response whatever it is. */
const extraHeaders = new WeakMap<HttpEvent, Record<string, string>>();

function extraResponseHeaders(): HttpMiddleware {
  const decorate = (request: HttpRequest): void => {
    const headers = extraHeaders.get(request.event);
    if (headers && request.response) request.response.headers = { ...request.response.headers, ...headers };
  };
  return { after: decorate, onError: decorate };
}

/** What the admission step decided for a request, for the operation. */
interface Admitted {
  route: Route;
  operation: AnyOperation;
  principal?: Principal;
}
const admitted = new WeakMap<HttpEvent, Admitted>();
/** Work the response waits for but the request need not (the rate limit's `lastUsedAt`). */
const pending = new WeakMap<HttpEvent, Promise<void>>();

/**
 * Decides an API-key request under its key's rate limit before anything else runs: a refused
 * request never starts its operation, whose reads (a search, an offset listing's count) grow with
 * the tenant's data. Under half the limit the decision is usually the instance's own count, with
 * no call (lib/auth/rate-limit.ts). The rate-limit headers go on every response after
 * authentication.
 */
async function underRateLimit(event: HttpEvent, principal: ApiKeyPrincipal): Promise<void> {
  const { decision, headers, background } = await rateLimit(principal);
  extraHeaders.set(event, headers);
  pending.set(event, background);
  if (!decision.allowed) throw new RateLimitError(decision.retryAfterSeconds, headers);
}

/** A dashboard session's request counts against its user's limit (lib/auth/session-rate-limit.ts). */
async function underSessionRateLimit(event: HttpEvent, principal: SessionPrincipal): Promise<void> {
  const { decision, headers } = await sessionRateLimit(principal);
  extraHeaders.set(event, headers);
  if (!decision.allowed) throw new SessionRateLimitError(decision.retryAfterSeconds, headers);
}

/**
 * Who is calling. Session routes take the dashboard's session cookie only. API-key routes take a
 * Bearer API key, exactly as always, or, when the request has no Authorization header, the
 * dashboard's session cookie: a session holds every scope in its organization and environment,
 * its state-changing calls must pass the CSRF defence, and it is not rate-limited (limits are per
 * API key). Without either, the answer is the API key's 401.
 */
async function authenticate(event: HttpEvent, route: Route): Promise<Principal> {
  if (route.auth === 'session') return authenticateSession(event);
  const authorization = event.headers?.authorization;
  if (!authorization && hasSessionCookie(event)) return authenticateSession(event);
  return authenticateApiKey(authorization);
}

/**
 * The Lambda handler of one function group of the JSON API, a middy pipeline. Every request goes
 * through the same steps: request id and standard headers, structured logging, the error object
 * of docs/api.md for every failure (@middy/http-error-handler, fed by lib/http/api-errors.ts),
 * admission (the route; authentication as the route says: an API key with its rate limit, decided
 * before anything is read, or a dashboard session with its CSRF defence, which API-key routes also
 * accept, or none for public operations; the route's scope), then for routes with a body its raw
 * bytes (413 past 256 KiB), their nesting and keys (400 past 32 levels or for a key twice in one
 * object, lib/http/json-depth.ts) and @middy/http-json-body-parser, then the operation.
 * Throws at load time unless `operations` implements exactly the routes the table gives `fn`.
 */
export function defineApiHandler(fn: FunctionName, operations: Readonly<Record<string, AnyOperation>>) {
  const routes = new Map(routesOf(fn).map((route) => [routeKey(route), route] as const));
  const missing = [...routes.keys()].filter((key) => !(key in operations));
  const extra = Object.keys(operations).filter((key) => !routes.has(key));
  if (missing.length || extra.length) {
    throw new Error(`Function ${fn} does not match the route table: missing [${missing}], unrouted [${extra}]`);
  }
  for (const [key, route] of routes) {
    const operation = operations[key];
    if (route.auth === 'webhook') throw new Error(`${key}: webhook routes need their own pipeline (the HMAC is over the raw body).`);
    if (operation && (route.auth === 'none') !== isPublic(operation)) {
      throw new Error(`${key}: the route table says auth '${route.auth}'; mark public operations, and only those, with publicOperation().`);
    }
    if (operation && (route.auth === 'optional') !== isOptional(operation)) {
      throw new Error(`${key}: the route table says auth '${route.auth}'; mark operations with optional credentials, and only those, with optionalOperation().`);
    }
  }

  /**
   * The route, then who is calling (as the route says), the rate limit of an API key, and the
   * route's scope: all before the body is read.
   */
  const admission: HttpMiddleware = {
    before: async ({ event }) => {
      const route = routes.get(event.routeKey);
      const operation = operations[event.routeKey];
      if (!route || !operation) throw new NotFoundError('No such endpoint.');
      logger().appendKeys({ requestId: requestIdOf(event), routeKey: event.routeKey });
      if (isPublic(operation)) {
        admitted.set(event, { route, operation });
        return;
      }
      if (isOptional(operation) && !event.headers?.authorization && !hasSessionCookie(event)) {
        // Without credentials, the client address's own limit (lib/auth/anonymous-rate-limit.ts), decided before anything is read.
        const { headers } = await anonymousRateLimit(event.requestContext?.http?.sourceIp ?? 'unknown');
        extraHeaders.set(event, headers);
        admitted.set(event, { route, operation });
        return;
      }
      const principal = await authenticate(event, route);
      logger().appendKeys({
        orgId: principal.tenant.orgId,
        environment: principal.tenant.environment,
        ...(principal.kind === 'apiKey' ? { keyId: principal.keyId } : { userId: principal.userId }),
      });
      if (principal.kind === 'apiKey') await underRateLimit(event, principal);
      else await underSessionRateLimit(event, principal);
      requireScope(principal, route.scopes, `${route.method} ${route.path}`);
      admitted.set(event, { route, operation, principal });
    },
  };
  const settle = async ({ event }: HttpRequest): Promise<void> => {
    await pending.get(event);
  };

  return middy<HttpEvent, HttpResult>()
    .use(requestIdHeader())
    .use(extraResponseHeaders())
    .use(injectLambdaContext(logger(), { resetKeys: true }))
    .use(errorResponses())
    .use({ after: settle, onError: settle })
    .use(admission)
    .use(onBodyRoutes(captureRawBody((event) => admitted.get(event)?.route.maxBodyBytes ?? MAX_BODY_BYTES)))
    .use(onBodyRoutes(jsonDepthLimit(), { json: true }))
    .use(onBodyRoutes(httpJsonBodyParser() as HttpMiddleware, { json: true }))
    .handler(async (event, context) => {
      const { route, operation, principal } = admitted.get(event)!;
      const requestId = requestIdOf(event);
      const body: unknown = route.rawBody ? rawBody(event) : route.body ? event.body : undefined;
      if (isPublic(operation)) return operation.run({ event, route, requestId, body });
      if (isOptional(operation)) return operation.run({ event, route, requestId, body, ...(principal ? { principal } : {}) });
      if (!principal) throw new Error(`${event.routeKey}: no principal was admitted.`);
      const execute = () => operation({ event, route, requestId, principal, body });
      // A route with a path parameter keys its Idempotency-Key by the path too: the same key on another resource is another request.
      const idempotencyRoute = route.path.includes('{') ? `${event.routeKey} ${event.rawPath}` : event.routeKey;
      return route.idempotent ? withIdempotencyKey(event, context, principal, idempotencyRoute, execute) : execute();
    });
}

/** Runs a `before` middleware only for requests whose route takes a body (with `json`, a JSON body: not `rawBody`). */
function onBodyRoutes(middleware: HttpMiddleware, only: { json?: boolean } = {}): HttpMiddleware {
  const before = middleware.before;
  if (!before) throw new Error('onBodyRoutes wraps a before middleware.');
  return {
    before: (request) => {
      const route = admitted.get(request.event)?.route;
      if (route?.body && !(only.json && route.rawBody)) return before(request);
      return undefined;
    },
  };
}

/** A path parameter; a missing one cannot match any resource, so it is a 404. */
export function pathParam(request: ApiRequest, name: string): string {
  const value = request.event.pathParameters?.[name];
  if (value === undefined || value === '') throw new NotFoundError(`The path is missing ${name}.`);
  return value;
}
