import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { backupStoreNames } from './constructs/backup-store.ts';
import { parseAuthorityIssuers } from '../../lib/config.ts';

/**
 * Deployment settings, from CDK context (`cdk deploy -c apiDomain=api.example.com ...` or the
 * `context` of cdk.json). Every one is optional: without any, the stack deploys on the default
 * execute-api, CloudFront and Cognito domains. Nothing is looked up in an account.
 */
export interface DeploySettings {
  /** Custom domain of the API (needs `certificateArn`, an ACM certificate in the stack's region). */
  apiDomain?: string;
  certificateArn?: string;
  /** Custom domain of the public resolver on CloudFront (needs a certificate in us-east-1). */
  resolverDomain?: string;
  /** ACM certificate in us-east-1 for `resolverDomain`; defaults to `certificateArn` when that one is in us-east-1. */
  resolverCertificateArn?: string;
  /** ARN of a WAFv2 web ACL (scope CLOUDFRONT, in us-east-1) to attach to the resolver distribution. */
  resolverWebAclArn?: string;
  /** Route 53 zone (id and name) in which to create alias records for the custom domains. */
  hostedZoneId?: string;
  hostedZoneName?: string;
  /** Prefix of the Cognito hosted sign-in domain (`<prefix>.auth.<region>.amazoncognito.com`). */
  authDomainPrefix?: string;
  /** Extra origins allowed to make cookie-authenticated calls (comma-separated). */
  dashboardOrigins?: string;
  /** E-mail address subscribed to the alarm topic. */
  alarmEmail?: string;
  /**
   * Id of the CloudFront multi-tenant distribution serving brand domains (docs/brand-domains.md):
   * a verified domain gets a distribution tenant of it. Unset, verified domains get none.
   */
  brandDistributionId?: string;
  /**
   * The host a verified brand domain's CNAME points at (the brand distribution's endpoint,
   * d….cloudfront.net): the domains function shows it as the domain's CNAME target.
   */
  brandCnameTarget?: string;
  logRetention: RetentionDays;
  /** Default stage throttling of the HTTP API (steady requests per second, and burst). */
  apiRateLimit: number;
  apiBurstLimit: number;
  /**
   * Reserved concurrency per function (Lambda's ReservedConcurrentExecutions): from the context value
   * `accessReservedConcurrency`, the access function's (docs/security.md#the-third-review-issue-37):
   * a flood of anonymous reads then never takes the concurrency the resolver and the other functions
   * need. Unset by default: a new account's concurrency quota may be too small to reserve any.
   */
  reservedConcurrency?: Readonly<Record<string, number>>;
  /**
   * The market surveillance authorities' identity providers whose inspectors sign in to
   * `GET /inspect/{dppId}` (docs/access.md#market-surveillance-authorities): the context value
   * `authorityIssuers`, a JSON array of `{issuer, clientId, name?}` (or that array itself in
   * cdk.json), checked as the function reads it (AUTHORITY_ISSUERS, lib/config.ts). Unset: none.
   */
  authorityIssuers?: string;
  /**
   * The EU registry's API (docs/registry.md#the-outbox): the production registry (context value
   * `registry`), with which live environments register, and the acceptance registry
   * (`registryAcceptance`), with which test environments register; each a JSON object
   * `{baseUrl, tokenUrl, clientId, clientSecretArn}` (in cdk.json, the object itself). Given to the
   * functions whose grants say `registry` as REGISTRY_* and REGISTRY_ACCEPTANCE_*, with
   * `secretsmanager:GetSecretValue` on the client secret. Unset: that environment registers nothing
   * through the API (the outbox leaves its registrations as they are).
   */
  registry?: { production?: RegistryDeploy; acceptance?: RegistryDeploy };
}

/** One registry's API as the stack gives it to the functions: its client secret stays in Secrets Manager. */
export interface RegistryDeploy {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecretArn: string;
}

export const DEFAULT_SETTINGS: DeploySettings = {
  logRetention: RetentionDays.ONE_MONTH,
  apiRateLimit: 500,
  apiBurstLimit: 1000,
};

/** The context keys, for docs/deploy.md#context-values and error messages. */
export const CONTEXT_KEYS = [
  'apiDomain',
  'certificateArn',
  'resolverDomain',
  'resolverCertificateArn',
  'resolverWebAclArn',
  'hostedZoneId',
  'hostedZoneName',
  'authDomainPrefix',
  'dashboardOrigins',
  'alarmEmail',
  'brandDistributionId',
  'brandCnameTarget',
  'logRetentionDays',
  'apiRateLimit',
  'apiBurstLimit',
  'accessReservedConcurrency',
  'authorityIssuers',
  'registry',
  'registryAcceptance',
] as const;

/** A registry's context value (an object, or its JSON), each member a non-empty string; undefined when unset. */
function registryFromContext(node: Node, key: 'registry' | 'registryAcceptance'): RegistryDeploy | undefined {
  const raw: unknown = node.tryGetContext(key);
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new Error(`Context value ${key} must be a JSON object {baseUrl, tokenUrl, clientId, clientSecretArn}.`);
    }
  }
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const member = (name: keyof RegistryDeploy): string => {
    const found = record?.[name];
    if (typeof found !== 'string' || !found.trim()) throw new Error(`Context value ${key} needs ${name} (a string).`);
    return found.trim();
  };
  return { baseUrl: member('baseUrl'), tokenUrl: member('tokenUrl'), clientId: member('clientId'), clientSecretArn: member('clientSecretArn') };
}

export function settingsFromContext(node: Node): DeploySettings {
  const text = (key: (typeof CONTEXT_KEYS)[number]): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`Context value ${key} must be a string.`);
    return String(value).trim();
  };
  const positive = (key: 'apiRateLimit' | 'apiBurstLimit' | 'logRetentionDays' | 'accessReservedConcurrency', fallback: number): number => {
    const value = text(key);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`Context value ${key} must be a positive integer, not "${value}".`);
    return n;
  };
  const issuersValue: unknown = node.tryGetContext('authorityIssuers');
  const authorityIssuers = Array.isArray(issuersValue) ? JSON.stringify(issuersValue) : text('authorityIssuers');
  const retention = positive('logRetentionDays', DEFAULT_SETTINGS.logRetention);
  if (!(Object.values(RetentionDays) as number[]).includes(retention)) {
    throw new Error(`Context value logRetentionDays must be one of CloudWatch Logs' retention periods (1, 3, 5, 7, 14, 30, 60, 90, ...), not ${retention}.`);
  }
  const settings: DeploySettings = {
    apiDomain: text('apiDomain'),
    certificateArn: text('certificateArn'),
    resolverDomain: text('resolverDomain'),
    resolverCertificateArn: text('resolverCertificateArn'),
    resolverWebAclArn: text('resolverWebAclArn'),
    hostedZoneId: text('hostedZoneId'),
    hostedZoneName: text('hostedZoneName'),
    authDomainPrefix: text('authDomainPrefix'),
    dashboardOrigins: text('dashboardOrigins'),
    alarmEmail: text('alarmEmail'),
    brandDistributionId: text('brandDistributionId'),
    brandCnameTarget: text('brandCnameTarget'),
    logRetention: retention as RetentionDays,
    apiRateLimit: positive('apiRateLimit', DEFAULT_SETTINGS.apiRateLimit),
    apiBurstLimit: positive('apiBurstLimit', DEFAULT_SETTINGS.apiBurstLimit),
    ...(text('accessReservedConcurrency') === undefined ? {} : { reservedConcurrency: { access: positive('accessReservedConcurrency', 0) } }),
    ...(authorityIssuers ? { authorityIssuers } : {}),
  };
  const production = registryFromContext(node, 'registry');
  const acceptance = registryFromContext(node, 'registryAcceptance');
  if (production || acceptance) settings.registry = { ...(production ? { production } : {}), ...(acceptance ? { acceptance } : {}) };
  validateSettings(settings);
  return settings;
}

/** The certificate CloudFront serves the resolver domain with (CloudFront needs one in us-east-1). */
export function resolverCertificateArn(settings: DeploySettings): string | undefined {
  if (settings.resolverCertificateArn) return settings.resolverCertificateArn;
  return settings.certificateArn && certificateRegion(settings.certificateArn) === 'us-east-1' ? settings.certificateArn : undefined;
}

export function validateSettings(settings: DeploySettings): void {
  const domain = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
  for (const key of ['apiDomain', 'resolverDomain', 'hostedZoneName'] as const) {
    const value = settings[key];
    if (value !== undefined && !domain.test(value)) throw new Error(`Context value ${key} must be a lower-case domain name, not "${value}".`);
  }
  for (const key of ['certificateArn', 'resolverCertificateArn'] as const) {
    const value = settings[key];
    if (value !== undefined && certificateRegion(value) === undefined) throw new Error(`Context value ${key} must be an ACM certificate ARN, not "${value}".`);
  }
  if (settings.apiDomain && !settings.certificateArn) {
    throw new Error('Context value apiDomain needs certificateArn (an ACM certificate for it in the stack\'s region).');
  }
  if (settings.resolverDomain && !resolverCertificateArn(settings)) {
    throw new Error('Context value resolverDomain needs a certificate in us-east-1 (CloudFront): set resolverCertificateArn.');
  }
  const rca = settings.resolverCertificateArn;
  if (rca && certificateRegion(rca) !== 'us-east-1') throw new Error('Context value resolverCertificateArn must be a certificate in us-east-1 (CloudFront).');
  const acl = settings.resolverWebAclArn;
  if (acl !== undefined && !/^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[^/]+\/[a-f0-9-]+$/.test(acl)) {
    throw new Error(`Context value resolverWebAclArn must be the ARN of a CLOUDFRONT-scoped WAFv2 web ACL (us-east-1, global/webacl/...), not "${acl}".`);
  }
  if (Boolean(settings.hostedZoneId) !== Boolean(settings.hostedZoneName)) {
    throw new Error('Context values hostedZoneId and hostedZoneName go together.');
  }
  if (settings.hostedZoneName && !settings.apiDomain && !settings.resolverDomain) {
    throw new Error('A hosted zone only makes sense with apiDomain or resolverDomain.');
  }
  const prefix = settings.authDomainPrefix;
  if (prefix !== undefined && (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(prefix) || /aws|amazon|cognito/.test(prefix))) {
    throw new Error(`Context value authDomainPrefix must be lower-case letters, digits and hyphens without "aws", "amazon" or "cognito", not "${prefix}".`);
  }
  const brand = settings.brandDistributionId;
  if (brand !== undefined && !/^E[A-Z0-9]{5,20}$/.test(brand)) throw new Error(`Context value brandDistributionId must be a CloudFront distribution id (E…), not "${brand}".`);
  const target = settings.brandCnameTarget;
  if (target !== undefined && !/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(target)) {
    throw new Error(`Context value brandCnameTarget must be a lower-case host name such as d111111abcdef8.cloudfront.net, not "${target}".`);
  }
  if (settings.apiBurstLimit < 1 || settings.apiRateLimit < 1) throw new Error('API throttling limits must be positive.');
  for (const [name, registry] of Object.entries(settings.registry ?? {})) {
    const key = name === 'production' ? 'registry' : 'registryAcceptance';
    for (const member of ['baseUrl', 'tokenUrl'] as const) {
      let url: URL | undefined;
      try {
        url = new URL(registry[member]);
      } catch {
        url = undefined;
      }
      if (url?.protocol !== 'https:') throw new Error(`Context value ${key}.${member} must be an https URL, not "${registry[member]}".`);
    }
    if (!/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+$/.test(registry.clientSecretArn)) {
      throw new Error(`Context value ${key}.clientSecretArn must be a Secrets Manager secret ARN, not "${registry.clientSecretArn}".`);
    }
  }
  if (settings.authorityIssuers !== undefined) {
    try {
      parseAuthorityIssuers(settings.authorityIssuers);
    } catch (error) {
      throw new Error(`Context value ${(error as Error).message.replace(/^AUTHORITY_ISSUERS/, 'authorityIssuers')}`);
    }
  }
}

function certificateRegion(arn: string): string | undefined {
  return /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/.exec(arn)?.[1];
}

/**
 * The backup store in another region, and optionally another account, from the context values
 * `backupRegion`, `backupAccount` (default: `account`) and `account` (the service's own account,
 * which the store's policies name; required with `backupRegion`), with `backupRetentionYears`
 * (docs/backup.md#another-region-or-account). Undefined without `backupRegion`: the store is then a
 * part of the service's stack.
 */
export function backupStoreFromContext(node: Node, stackName: string) {
  const text = (key: string): string | undefined => {
    const value: unknown = node.tryGetContext(key);
    return typeof value === 'string' && value ? value : undefined;
  };
  const region = text('backupRegion');
  if (!region) return undefined;
  const account = text('account');
  if (!account || !/^\d{12}$/.test(account)) throw new Error('backupRegion needs the context value account: the service\'s 12-digit AWS account, which the backup store\'s policies name.');
  const backupAccount = text('backupAccount') ?? account;
  if (!/^\d{12}$/.test(backupAccount)) throw new Error(`backupAccount must be a 12-digit AWS account, not "${backupAccount}".`);
  const names = backupStoreNames(stackName, backupAccount, region);
  const roleName = `${stackName}-backup-writer`.slice(0, 64);
  const years: unknown = node.tryGetContext('backupRetentionYears');
  return {
    stack: {
      env: { account: backupAccount, region },
      description: 'Product Passport backup copy: locked buckets in their own region and account',
      names,
      writer: { roleArn: `arn:aws:iam::${account}:role/${roleName}`, account },
      ...(years === undefined ? {} : { retentionYears: Number(years) }),
    },
    service: { region, account: backupAccount, names, roleName },
  };
}
