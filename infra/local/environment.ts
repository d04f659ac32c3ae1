import { join } from 'node:path';
import { DEV_AUTHORITY_NAME, INSPECT_CLIENT_ID } from './identity-provider.ts';

/** What the local stack knows when it sets the functions' environment (a part of StackInfo). */
export interface LocalEnvironmentInput {
  region: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  scanQueueUrl: string;
  importQueueUrl: string;
  deliveryQueueUrl: string;
  /** The registry outbox queue (docs/registry.md#the-outbox). */
  registryOutboxQueueUrl?: string;
  resolverOrigin: string;
  url: string;
  oidcIssuer: string;
  oidcClientId: string;
  sessionSecret: string;
  secretsKey: string;
  dnsServer: string;
  /** The EU registry emulator (infra/local/registry-emulator.ts); unset, no registry is configured. */
  registryBaseUrl?: string;
  registryTokenUrl?: string;
  registryClientId?: string;
  registryClientSecret?: string;
}

/**
 * Both registries, production (live) and acceptance (test), point at the emulator, unless the
 * operator gave `npm start` a registry of its own (its base URL set: that group is kept whole).
 */
function localRegistryEnvironment(info: LocalEnvironmentInput, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  if (!info.registryBaseUrl || !info.registryTokenUrl || !info.registryClientId || !info.registryClientSecret) return {};
  const out: Record<string, string> = {};
  for (const prefix of ['REGISTRY_', 'REGISTRY_ACCEPTANCE_']) {
    if (env[`${prefix}BASE_URL`]) continue;
    Object.assign(out, {
      [`${prefix}BASE_URL`]: info.registryBaseUrl,
      [`${prefix}TOKEN_URL`]: info.registryTokenUrl,
      [`${prefix}CLIENT_ID`]: info.registryClientId,
      [`${prefix}CLIENT_SECRET`]: info.registryClientSecret,
    });
  }
  return out;
}

/**
 * The environment the local stack gives the functions, which read their configuration from it as
 * they do in Lambda (docs/configuration.md). `env` is the environment `npm start` was started
 * with: a variable the operator set there and that the stack only defaults is kept.
 */
export function localFunctionEnvironment(
  info: LocalEnvironmentInput,
  options: { dataDir: string; eventRetryScheduleSeconds?: readonly number[]; resolverViewCacheMs?: number; anonymousRateLimitPerMinute?: number },
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return {
    AWS_REGION: info.region,
    TABLE_NAME: info.tableName,
    DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
    SQS_ENDPOINT: info.sqsEndpoint,
    SCAN_QUEUE_URL: info.scanQueueUrl,
    IMPORT_QUEUE_URL: info.importQueueUrl,
    RESOLVER_ORIGIN: info.resolverOrigin,
    PUBLIC_API_ORIGIN: info.url,
    OIDC_ISSUER: info.oidcIssuer,
    OIDC_CLIENT_ID: info.oidcClientId,
    // The development identity provider stands for a market surveillance authority's too, with its inspectors'
    // client (docs/access.md#market-surveillance-authorities); like OIDC_ISSUER, the stack's own provider each start.
    AUTHORITY_ISSUERS: JSON.stringify([{ issuer: info.oidcIssuer, clientId: INSPECT_CLIENT_ID, name: DEV_AUTHORITY_NAME }]),
    SESSION_SECRET: info.sessionSecret,
    SECRETS_KEY: info.secretsKey,
    DNS_SERVER: info.dnsServer,
    // Credential signing keys, one private JWK file each (lib/data/signers.ts); in AWS, KMS keys.
    SIGNING_KEY_DIR: join(options.dataDir, 'signing-keys'),
    EVENT_DELIVERY_QUEUE_URL: info.deliveryQueueUrl,
    ...(info.registryOutboxQueueUrl ? { REGISTRY_OUTBOX_QUEUE_URL: info.registryOutboxQueueUrl } : {}),
    // The emulator decides an entry after REGISTRY_EMULATOR_DELAY_MS (1 s by default): the outbox asks after 1 s, not 60 (a value given to npm start is kept).
    REGISTRY_STATUS_POLL_SECONDS: env.REGISTRY_STATUS_POLL_SECONDS ?? '1',
    // Local only: event subscriptions may post to http:// loopback receivers (never set in AWS;
    // docs/webhooks-outbound.md#ssrf). Only a default: a value given to npm start is kept, so any
    // other value than true refuses loopback as docs/configuration.md says.
    EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK: env.EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK ?? 'true',
    ...(options.eventRetryScheduleSeconds ? { EVENT_RETRY_SCHEDULE_SECONDS: options.eventRetryScheduleSeconds.join(',') } : {}),
    ...(options.resolverViewCacheMs === undefined ? {} : { RESOLVER_VIEW_CACHE_MS: String(options.resolverViewCacheMs) }),
    ...(options.anonymousRateLimitPerMinute === undefined ? {} : { ANON_RATE_LIMIT_PER_MINUTE: String(options.anonymousRateLimitPerMinute) }),
    ...localRegistryEnvironment(info, env),
  };
}
