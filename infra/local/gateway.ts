import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Context } from 'aws-lambda';
import { ApiError, InternalError, MethodNotAllowedError, NotFoundError, PayloadTooLargeError } from '../../lib/http/errors.ts';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { routeKey, type FunctionName, type Route } from '../../lib/api/routes.ts';
import { createRouteMatcher } from './route-matcher.ts';

export type LambdaHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

export interface GatewayOptions {
  port: number;
  host?: string;
  routes: readonly Route[];
  /** Loads a function's handler module (once) and returns its `handler`. */
  loadHandler: (fn: FunctionName) => Promise<LambdaHandler>;
  /** Extra answers the gateway gives itself, such as `/health`. */
  local?: (req: IncomingMessage) => LocalAnswer | Promise<LocalAnswer> | undefined;
}

/** An answer of the gateway's own: `body` as JSON, or a Buffer sent as-is with `headers` (static files). */
export interface LocalAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Gateway {
  url: string;
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/** API Gateway's own payload limit for HTTP APIs. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-www-form-urlencoded|[\w.+-]+\+(json|xml)))/i;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > GATEWAY_MAX_BODY) {
        reject(new PayloadTooLargeError(GATEWAY_MAX_BODY));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The URL of a request target. A target is a path (origin form) and is read as one: resolved
 * against a base, `//x/…` would name host `x` (and throw for a host such as `%00`).
 */
export function requestUrl(target = '/'): URL {
  return target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target, 'http://localhost');
}

/** Builds the API Gateway HTTP API (payload format 2.0) event for a request. */
export function toEvent(
  req: IncomingMessage,
  body: Buffer,
  route: Route,
  pathParameters: Record<string, string>,
  requestId: string,
): HttpEvent {
  const url = requestUrl(req.url);
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = (req.rawHeaders[i] ?? '').toLowerCase();
    const value = req.rawHeaders[i + 1] ?? '';
    if (name === 'cookie') {
      cookies.push(...value.split(';').map((c) => c.trim()).filter(Boolean));
      continue;
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = new Date();
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: routeKey(route),
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: body.toString(isText ? 'utf8' : 'base64') } : {}),
    isBase64Encoded: !isText,
  };
}

function lambdaContext(fn: FunctionName, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: fn,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${fn}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${fn}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, result: HttpResult, method: string | undefined): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(method === 'HEAD' ? undefined : body);
}

function errorResult(error: ApiError, requestId: string): HttpResult {
  return {
    statusCode: error.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Request-Id': requestId, ...error.headers },
    body: JSON.stringify(error.toBody()),
  };
}

/**
 * A small HTTP server that plays API Gateway: it matches the route table, turns each request into
 * the event API Gateway would send, and calls the same handler Lambda calls.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const match = createRouteMatcher(options.routes);
  const server = createServer(async (req, res) => {
    const requestId = randomUUID();
    try {
      const local = await options.local?.(req);
      if (local) {
        const raw = Buffer.isBuffer(local.body);
        send(
          res,
          raw
            ? { statusCode: local.status, headers: local.headers ?? {}, body: (local.body as Buffer).toString('base64'), isBase64Encoded: true }
            : { statusCode: local.status, headers: { 'Content-Type': 'application/json', ...local.headers }, body: JSON.stringify(local.body) },
          req.method,
        );
        return;
      }
      const path = requestUrl(req.url).pathname;
      const found = match(req.method ?? 'GET', path);
      if (found.kind === 'none') throw new NotFoundError(`No endpoint at ${path}.`);
      if (found.kind === 'method-not-allowed') throw new MethodNotAllowedError(req.method ?? '', found.allowed);
      const body = await readBody(req);
      const event = toEvent(req, body, found.route, found.pathParameters, requestId);
      const handler = await options.loadHandler(found.route.function);
      send(res, await handler(event, lambdaContext(found.route.function, requestId)), req.method);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new InternalError(requestId);
      if (!(error instanceof ApiError)) console.error(`[gateway] ${requestId}`, error);
      if (!res.headersSent) send(res, errorResult(apiError, requestId), req.method);
    }
  });
  // Longer than any pause of a busy client between two requests on one connection: a server that
  // closes an idle socket while the client (its timers delayed by a blocked event loop) reuses it
  // makes the request fail with "other side closed". API Gateway keeps idle connections far longer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://localhost:${port}`,
    port,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
