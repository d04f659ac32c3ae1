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
  /** The bulk import queue (IMPORT_QUEUE_URL): one message per chunk of an import job. */
  importQueueUrl?: string;
  /** The event delivery queue (EVENT_DELIVERY_QUEUE_URL): one message per attempt of an outbound webhook (docs/webhooks-outbound.md). */
  eventDeliveryQueueUrl?: string;
  /** The registry outbox queue (REGISTRY_OUTBOX_QUEUE_URL): one message per registration the outbox works on (docs/registry.md#the-outbox). */
  registryOutboxQueueUrl?: string;
  /**
   * REGISTRY_STATUS_POLL_SECONDS: how long after an entry was accepted as pending the outbox asks the
   * registry for its outcome, and again while it is pending (default 60; 1 to 900). Tests shorten it.
   */
  registryStatusPollSeconds: number;
  /**
   * EVENT_RETRY_SCHEDULE_SECONDS: the waits before each retry of a failed outbound webhook,
   * comma-separated (default 5,300,1800,7200,18000,36000,36000); tests shorten it.
   */
  eventRetryScheduleSeconds?: number[];
  /**
   * EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK=true: event subscriptions may use http:// and loopback
   * addresses. Only the local stack sets it (infra/local/stack.ts); never set in AWS (docs/webhooks-outbound.md#ssrf).
   */
  eventSubscriptionsAllowLoopback: boolean;
  /** Origin of the public resolver that every `qrCodeUrl` points at. */
  resolverOrigin: string;
  /**
   * RESOLVER_ORIGIN_SECRET: set in AWS, where CloudFront sends it to the resolver as the
   * RESOLVER_ORIGIN_HEADER; the resolver then refuses requests without it (docs/deploy.md). Unset
   * locally: every request is served.
   */
  resolverOriginSecret?: string;
  /** How long an authenticated API key may be served from memory (at most 5 s). */
  keyCacheTtlMs: number;
  /**
   * AWS_ATTEMPT_TIMEOUT_MS: when an attempt of a call to DynamoDB, SQS, KMS or Secrets Manager is
   * cut off (default 2000; lib/data/aws-budget.ts). SCAN_ATTEMPT_TIMEOUT_MS: the same on the scan
   * path (default 1000; lib/data/aws-json.ts). Unset in AWS. With a local DynamoDB endpoint both
   * default to 5000: DynamoDB Local (Java, SQLite) on a busy machine pauses for seconds, which
   * DynamoDB does not, a write cut off and retried would find its own first attempt, and the local
   * gateway shares its event loop with whatever else the process runs (the test runner's main
   * process in the suite), so a timer may expire before the answer that came in time is read.
   */
  awsAttemptTimeoutMs: number;
  scanAttemptTimeoutMs: number;
  /**
   * RESOLVER_VIEW_CACHE_MS: how long the resolver answers a GTIN from what it read (0 to 1000,
   * default 1000; functions/resolver/hot-cache.ts). 0 turns it off (the suite's shared stack, where
   * tests change a product and scan it at once).
   */
  resolverViewCacheMs: number;
  /** Requests a minute an API key may make unless it has its own limit (RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute: number;
  /** Requests a minute one client address may make without credentials to the read API (ANON_RATE_LIMIT_PER_MINUTE; lib/auth/anonymous-rate-limit.ts). */
  anonymousRateLimitPerMinute: number;
  /** Origin of this API as browsers reach it (PUBLIC_API_ORIGIN); the dashboard's default origin. */
  publicApiOrigin: string;
  /** Origins allowed to make cookie-authenticated state-changing calls (DASHBOARD_ORIGINS, comma-separated). */
  dashboardOrigins: string[];
  /** The session cookie key as base64 of 32 bytes (SESSION_SECRET), or its Secrets Manager secret (SESSION_SECRET_ARN). */
  sessionSecret?: string;
  sessionSecretArn?: string;
  /** Lifetime of a dashboard session (SESSION_TTL_SECONDS, default 8 hours). */
  sessionTtlSeconds: number;
  /**
   * The key that seals webhook signing secrets at rest (lib/data/secret-box.ts): a KMS key id or ARN
   * (SECRETS_KMS_KEY_ID, AWS), else 32 bytes base64-encoded (SECRETS_KEY, locally `.data/secrets-key`).
   */
  secretsKmsKeyId?: string;
  secretsKey?: string;
  /**
   * SIGNING_KEY_DIR: where local credential signing keys are kept (the local stack's
   * `.data/signing-keys`); unset (AWS), each organization's key is a KMS key (docs/credentials.md#keys).
   */
  signingKeyDir?: string;
  /**
   * DNS_SERVER: the DNS server (`host:port`, such as 127.0.0.1:53535) that verifying a brand
   * domain asks for its TXT record; unset, the system's resolvers (docs/brand-domains.md).
   */
  dnsServer?: string;
  /**
   * CLOUDFRONT_MULTI_TENANT_DISTRIBUTION_ID: the multi-tenant distribution a verified brand domain
   * gets a distribution tenant of (AWS); unset, none is created (locally).
   */
  cloudfrontMultiTenantDistributionId?: string;
  /**
   * BRAND_CNAME_TARGET: the host a verified brand domain's CNAME record points at (the brand
   * distribution's endpoint, docs/brand-domains.md); the domain's read form shows it. Unset, the
   * read form says null and the operator gives it.
   */
  brandCnameTarget?: string;
  /**
   * BACKUP_BUCKET: the bucket of the backup copy of every published version (docs/backup.md);
   * unset, nothing is copied. S3_ENDPOINT: set locally (the store in front of fauxqs,
   * infra/local/backup-store.ts); unset in AWS.
   */
  backupBucket?: string;
  s3Endpoint?: string;
  /**
   * EXPORTS_BUCKET: where `POST /v1/exports/archive` writes an organization's archive
   * (docs/import-export.md#leaving-the-archive); unset, the route answers 503. Locally a second
   * bucket of the backup store (S3_ENDPOINT).
   */
  exportsBucket?: string;
  /**
   * BACKUP_PUBLIC_BUCKET: the bucket of the public copy (each version's public read form and pages,
   * docs/backup.md#the-public-copy); BACKUP_PUBLIC_ORIGIN: where it is served (a passport's
   * `backupUrl` starts with it). Unset, no public copy is written and no read names a backupUrl.
   */
  backupPublicBucket?: string;
  backupPublicOrigin?: string;
  /**
   * BACKUP_PUBLIC_PAGES=all: the public copy holds each passport version's page in every language
   * beside its JSON (docs/backup.md#the-public-copy). Set in AWS; off in the local stack by default.
   */
  backupPublicPages: boolean;
  /** BACKUP_REGION: the backup store's region when it is not the service's (docs/backup.md#another-region-or-account). */
  backupRegion?: string;
  /** The OpenID Connect identity provider (Amazon Cognito in AWS, oidc-provider locally). */
  oidc: {
    issuer?: string;
    clientId?: string;
    /** Unset for a public client (PKCE only). */
    clientSecret?: string;
    redirectUri: string;
  };
  /**
   * AUTHORITY_ISSUERS: the identity providers of market surveillance authorities whose inspectors
   * sign in to `GET /inspect/{dppId}` with credentials issued outside this platform, a JSON array of
   * `{issuer, clientId, name?}` (docs/access.md#market-surveillance-authorities). Empty: nobody
   * signs in there. Locally the development identity provider's issuer.
   */
  authorityIssuers: AuthorityIssuer[];
  /**
   * The EU registry of Digital Product Passports an organization's registrations go to
   * (docs/registry.md#the-client-and-the-emulator): its live environment to the production registry
   * (REGISTRY_BASE_URL, REGISTRY_TOKEN_URL, REGISTRY_CLIENT_ID, REGISTRY_CLIENT_SECRET or
   * REGISTRY_CLIENT_SECRET_ARN), its test environment to the acceptance registry (the same names
   * with REGISTRY_ACCEPTANCE_). Unset: that environment registers nothing through the API. Locally
   * both point at the registry emulator (infra/local/registry-emulator.ts).
   */
  registry: { live?: RegistryEndpoint; test?: RegistryEndpoint };
}

/** One registry environment: where entries go, and the OAuth 2.0 client-credentials client that reaches it. */
export interface RegistryEndpoint {
  /** The registry's base URL (the CIRPASS-2 mock's contract: `{base}/metadata/v1/registerDPP`). */
  baseUrl: string;
  /** The token endpoint of its OpenID Connect provider (client-credentials grant). */
  tokenUrl: string;
  clientId: string;
  /** The client secret itself (locally), or the Secrets Manager secret holding it (AWS): exactly one. */
  clientSecret?: string;
  clientSecretArn?: string;
}

/** A market surveillance authority's OpenID Connect provider, trusted to sign its inspectors in (a public client: PKCE, no secret). */
export interface AuthorityIssuer {
  /** The issuer identifier, exactly as its ID tokens' `iss` and its discovery document say. */
  issuer: string;
  /** This service's client id at that provider. */
  clientId: string;
  /** The authority's name, as the owner's event log shows it (default: the issuer's host). */
  name: string;
}

/**
 * AUTHORITY_ISSUERS read: a JSON array of `{issuer, clientId, name?}`; each issuer an https URL (http
 * only on loopback, for the development provider), named once. Throws a sentence naming what is
 * wrong; the CDK settings check the context value with it before a deploy.
 */
export function parseAuthorityIssuers(text: string | undefined): AuthorityIssuer[] {
  if (!text || !text.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('AUTHORITY_ISSUERS must be a JSON array of {"issuer", "clientId", "name"?}.');
  }
  if (!Array.isArray(parsed)) throw new Error('AUTHORITY_ISSUERS must be a JSON array of {"issuer", "clientId", "name"?}.');
  const seen = new Set<string>();
  return parsed.map((entry: unknown, index) => {
    const { issuer, clientId, name, ...rest } = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const at = `AUTHORITY_ISSUERS[${index}]`;
    if (Object.keys(rest).length > 0) throw new Error(`${at} has an unknown field: ${Object.keys(rest)[0]}.`);
    if (typeof issuer !== 'string' || issuer.length > 2048) throw new Error(`${at}.issuer must be a URL of at most 2048 characters.`);
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new Error(`${at}.issuer must be a URL, not "${issuer.slice(0, 100)}".`);
    }
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) || url.username || url.password || url.search || url.hash) {
      throw new Error(`${at}.issuer must be an https URL without credentials, query or fragment (http only on this machine).`);
    }
    if (seen.has(issuer)) throw new Error(`${at}.issuer is named twice.`);
    seen.add(issuer);
    if (typeof clientId !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(clientId)) throw new Error(`${at}.clientId must be 1 to 256 visible ASCII characters.`);
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 200)) throw new Error(`${at}.name must be 1 to 200 characters.`);
    return { issuer, clientId, name: typeof name === 'string' ? name.trim() : url.host };
  });
}

/** The variables of one registry environment (docs/configuration.md). */
const REGISTRY_VARIABLES = {
  live: 'REGISTRY_',
  test: 'REGISTRY_ACCEPTANCE_',
} as const;

/**
 * One registry environment read from its variables (`prefix` + BASE_URL, TOKEN_URL, CLIENT_ID,
 * CLIENT_SECRET or CLIENT_SECRET_ARN): undefined when none is set; throws a sentence naming what is
 * missing or wrong when some are. The URLs are https (http only on this machine, the emulator).
 */
export function parseRegistryEndpoint(env: NodeJS.ProcessEnv, prefix: string): RegistryEndpoint | undefined {
  const read = (name: string) => env[`${prefix}${name}`]?.trim() || undefined;
  const baseUrl = read('BASE_URL');
  const tokenUrl = read('TOKEN_URL');
  const clientId = read('CLIENT_ID');
  const clientSecret = read('CLIENT_SECRET');
  const clientSecretArn = read('CLIENT_SECRET_ARN');
  if (!baseUrl && !tokenUrl && !clientId && !clientSecret && !clientSecretArn) return undefined;
  for (const [name, value] of [['BASE_URL', baseUrl], ['TOKEN_URL', tokenUrl], ['CLIENT_ID', clientId]] as const) {
    if (!value) throw new Error(`${prefix}${name} must be set with the other ${prefix}* variables.`);
  }
  if (!clientSecret === !clientSecretArn) throw new Error(`Set exactly one of ${prefix}CLIENT_SECRET and ${prefix}CLIENT_SECRET_ARN.`);
  for (const [name, value] of [['BASE_URL', baseUrl], ['TOKEN_URL', tokenUrl]] as const) {
    let url: URL;
    try {
      url = new URL(value as string);
    } catch {
      throw new Error(`${prefix}${name} must be a URL.`);
    }
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (!(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) || url.username || url.password || url.search || url.hash) {
      throw new Error(`${prefix}${name} must be an https URL without credentials, query or fragment (http only on this machine).`);
    }
  }
  return {
    baseUrl: (baseUrl as string).replace(/\/+$/, ''),
    tokenUrl: tokenUrl as string,
    clientId: clientId as string,
    ...(clientSecret ? { clientSecret } : {}),
    ...(clientSecretArn ? { clientSecretArn } : {}),
  };
}

/** The header in which CloudFront sends RESOLVER_ORIGIN_SECRET to the resolver (lower case, as functions see it). */
export const RESOLVER_ORIGIN_HEADER = 'x-origin-verify';

let cached: Config | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const ttl = Number(env.KEY_CACHE_TTL_MS ?? 5000);
  const publicApiOrigin = (env.PUBLIC_API_ORIGIN || 'http://localhost:3000').replace(/\/+$/, '');
  return {
    region: env.AWS_REGION ?? 'eu-central-1',
    tableName: env.TABLE_NAME ?? 'product-passport',
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    sqsEndpoint: env.SQS_ENDPOINT || undefined,
    scanQueueUrl: env.SCAN_QUEUE_URL || undefined,
    importQueueUrl: env.IMPORT_QUEUE_URL || undefined,
    eventDeliveryQueueUrl: env.EVENT_DELIVERY_QUEUE_URL || undefined,
    registryOutboxQueueUrl: env.REGISTRY_OUTBOX_QUEUE_URL || undefined,
    registryStatusPollSeconds: Math.min(positiveInt(env.REGISTRY_STATUS_POLL_SECONDS, 60), 900),
    eventRetryScheduleSeconds: retrySchedule(env.EVENT_RETRY_SCHEDULE_SECONDS),
    eventSubscriptionsAllowLoopback: env.EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK === 'true',
    resolverOrigin: env.RESOLVER_ORIGIN ?? 'http://localhost:3000',
    resolverOriginSecret: env.RESOLVER_ORIGIN_SECRET || undefined,
    keyCacheTtlMs: Number.isFinite(ttl) ? Math.min(Math.max(ttl, 0), 5000) : 5000,
    awsAttemptTimeoutMs: Math.min(positiveInt(env.AWS_ATTEMPT_TIMEOUT_MS, env.DYNAMODB_ENDPOINT ? 5000 : 2000), 20_000),
    scanAttemptTimeoutMs: Math.min(positiveInt(env.SCAN_ATTEMPT_TIMEOUT_MS, env.DYNAMODB_ENDPOINT ? 5000 : 1000), 20_000),
    resolverViewCacheMs: env.RESOLVER_VIEW_CACHE_MS === '0' ? 0 : Math.min(positiveInt(env.RESOLVER_VIEW_CACHE_MS, 1000), 1000),
    rateLimitPerMinute: positiveInt(env.RATE_LIMIT_PER_MINUTE, 1000),
    anonymousRateLimitPerMinute: positiveInt(env.ANON_RATE_LIMIT_PER_MINUTE, 120),
    publicApiOrigin,
    dashboardOrigins: (env.DASHBOARD_ORIGINS || publicApiOrigin).split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean),
    sessionSecret: env.SESSION_SECRET || undefined,
    sessionSecretArn: env.SESSION_SECRET_ARN || undefined,
    sessionTtlSeconds: positiveInt(env.SESSION_TTL_SECONDS, 8 * 60 * 60),
    secretsKmsKeyId: env.SECRETS_KMS_KEY_ID || undefined,
    secretsKey: env.SECRETS_KEY || undefined,
    signingKeyDir: env.SIGNING_KEY_DIR || undefined,
    dnsServer: env.DNS_SERVER || undefined,
    cloudfrontMultiTenantDistributionId: env.CLOUDFRONT_MULTI_TENANT_DISTRIBUTION_ID || undefined,
    brandCnameTarget: env.BRAND_CNAME_TARGET || undefined,
    backupBucket: env.BACKUP_BUCKET || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    exportsBucket: env.EXPORTS_BUCKET || undefined,
    backupPublicBucket: env.BACKUP_PUBLIC_BUCKET || undefined,
    backupPublicOrigin: env.BACKUP_PUBLIC_ORIGIN || undefined,
    backupRegion: env.BACKUP_REGION || undefined,
    backupPublicPages: env.BACKUP_PUBLIC_PAGES === 'all',
    oidc: {
      issuer: env.OIDC_ISSUER || undefined,
      clientId: env.OIDC_CLIENT_ID || undefined,
      clientSecret: env.OIDC_CLIENT_SECRET || undefined,
      redirectUri: env.OIDC_REDIRECT_URI || `${publicApiOrigin}/v1/auth/callback`,
    },
    authorityIssuers: parseAuthorityIssuers(env.AUTHORITY_ISSUERS),
    registry: {
      live: parseRegistryEndpoint(env, REGISTRY_VARIABLES.live),
      test: parseRegistryEndpoint(env, REGISTRY_VARIABLES.test),
    },
  };
}

function retrySchedule(value: string | undefined): number[] | undefined {
  if (!value) return undefined;
  const waits = value.split(',').map((part) => Number(part.trim()));
  return waits.every((n) => Number.isFinite(n) && n >= 0) ? waits : undefined;
}

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
}

export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
