/**
 * Runtime configuration, read from the environment once per process. Nothing else in `lib/` or
 * `functions/` reads `process.env`, and nothing knows whether it runs locally or in AWS.
 */
export interface Config {
  region: string;
  tableName: string;
  /** Set locally (DynamoDB Local); unset in AWS. */
  dynamodbEndpoint?: string;
  /** Set locally (fauxqs); unset in AWS. */
  sqsEndpoint?: string;
  scanQueueUrl?: string;
  /** Origin of the public resolver that every `qrCodeUrl` points at. */
  resolverOrigin: string;
  /** How long an authenticated API key may be served from memory (at most 5 s). */
  keyCacheTtlMs: number;
}

let cached: Config | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const ttl = Number(env.KEY_CACHE_TTL_MS ?? 5000);
  return {
    region: env.AWS_REGION ?? 'eu-central-1',
    tableName: env.TABLE_NAME ?? 'product-passport',
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    sqsEndpoint: env.SQS_ENDPOINT || undefined,
    scanQueueUrl: env.SCAN_QUEUE_URL || undefined,
    resolverOrigin: env.RESOLVER_ORIGIN ?? 'http://localhost:3000',
    keyCacheTtlMs: Number.isFinite(ttl) ? Math.min(Math.max(ttl, 0), 5000) : 5000,
  };
}

export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
