import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from '../../lib/http/types.ts';
import { startFakeAws } from './fake-aws.ts';

/**
 * What the resolver's unit tests share: its configuration, the API Gateway events it is handed,
 * and the GTIN item a scan reads. The handler is imported only after its environment is set,
 * since config() reads the environment once; its DynamoDB and SQS are the loopback fake of
 * test/support/fake-aws.ts (`ddb`, `sqs`).
 */
export const ORG = 'org_0123456789abcdef';
export const GTIN = '04006381333931';
export const PRODUCT_ID = '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f';
export const CONTEXT = { awsRequestId: 'req-1', functionName: 'resolver', getRemainingTimeInMillis: () => 10_000 } as Context;

type ResolverModule = typeof import('../../functions/resolver/handler.ts');

/** Sets the resolver's environment (`RESOLVER_ORIGIN_SECRET` only when given) and imports its handler. */
export async function loadResolver(extra: Record<string, string> = {}): Promise<ResolverModule> {
  delete process.env.RESOLVER_ORIGIN_SECRET;
  const endpoint = await startFakeAws();
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: endpoint,
    SQS_ENDPOINT: endpoint,
    RESOLVER_ORIGIN: 'https://id.example.com',
    TABLE_NAME: 'product-passport',
    SCAN_QUEUE_URL: 'https://sqs.eu-central-1.amazonaws.com/123456789012/scan-events',
    AWS_REGION: 'eu-central-1',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
    // Each test answers from the fake as it stands: no view remembered from the test before (test/unit/hot-cache.test.ts turns it on).
    RESOLVER_VIEW_CACHE_MS: '0',
    ...extra,
  });
  return import('../../functions/resolver/handler.ts');
}

export type Handler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

export interface EventOptions {
  method?: string;
  /** The route's path as the route table writes it. */
  route: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  pathParameters?: Record<string, string>;
  /** API Gateway's own host (the execute-api domain or the custom domain). */
  domainName?: string;
  userAgent?: string;
}

/** A request as API Gateway (HTTP API, payload 2.0) hands it to the resolver. */
export function apiGatewayEvent(options: EventOptions): HttpEvent {
  const method = options.method ?? 'GET';
  const domainName = options.domainName ?? 'id.example.com';
  const query = options.query ?? '';
  return {
    version: '2.0',
    routeKey: `${method} ${options.route}`,
    rawPath: options.path,
    rawQueryString: query,
    headers: options.headers ?? {},
    ...(query ? { queryStringParameters: Object.fromEntries(new URLSearchParams(query)) } : {}),
    pathParameters: options.pathParameters ?? {},
    requestContext: {
      accountId: '123456789012',
      apiId: 'abcdef1234',
      domainName,
      domainPrefix: domainName.split('.')[0],
      http: { method, path: options.path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: options.userAgent ?? 'test' },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: `${method} ${options.route}`,
      stage: '$default',
      time: '21/Nov/2026:10:15:30 +0000',
      timeEpoch: 1795256130000,
    },
    isBase64Encoded: false,
  } as HttpEvent;
}

/** The GTIN item a scan reads: the product's public fields and its current passport version. */
export const gtinItem = (qrCodeUrl: string, version: number) => ({
  productId: PRODUCT_ID,
  name: 'Riesling 2023',
  category: 'wine',
  gtin: GTIN,
  qrCodeUrl,
  passport: { passportId: `ps_${version}`, productId: PRODUCT_ID, version, data: {}, createdAt: '2026-11-01T00:00:00.000Z' },
});
