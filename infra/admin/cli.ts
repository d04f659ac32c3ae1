/**
 * The operator CLI: `npm run admin -- <command>`. It works on the table of the local stack that
 * runs on PORT (default 3000; found through its run file, `--memory` stacks included), or on the
 * AWS table with `--aws` (TABLE_NAME and AWS_REGION from the environment, credentials as usual).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { issueApiKey, revokeKey } from '../../lib/services/api-keys.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { startSession } from '../../lib/auth/session.ts';
import { addUserToOrganization, normalizeEmail } from '../../lib/services/users.ts';
import { setApiKeyRateLimit } from '../../lib/data/api-keys.ts';
import { getMembership } from '../../lib/data/memberships.ts';
import { getOrganization, setAuthority } from '../../lib/data/organizations.ts';
import { getProduct } from '../../lib/data/products.ts';
import { findUserIdByEmail, getUser } from '../../lib/data/users.ts';
import { API_KEY_SCOPES, isScope, type Scope } from '../../lib/domain/scopes.ts';
import { isEnvironment } from '../../lib/domain/tenant.ts';
import { createEndpointSchema } from '../../lib/domain/webhook.ts';
import { toValidationError } from '../../lib/http/validation.ts';
import { createEndpoint } from '../../lib/services/webhooks.ts';
import { repairUnitChain, verifyPassportChain } from '../../lib/services/passport-chain.ts';
import { backfillEventTypeIndex } from '../../lib/data/events.ts';
import { rotateSigningKey } from '../../lib/services/credentials.ts';
import { dnsRecordsFile, setTxtRecords } from '../local/dns.ts';
import { REPO_ROOT, runFile, type StackInfo } from '../local/stack.ts';
import { ensureTable } from '../local/dynamodb.ts';
import { restoreTenant, verifyTenant } from '../../lib/services/backup-restore.ts';

const USAGE = `Usage: npm run admin -- <command> [options] [--json] [--aws]

  org create --name NAME [--authority]
      Create an organization with one live and one test key holding every API scope. --authority
      marks it as a notified body, market surveillance authority or the Commission: its keys read
      the authority tier of every live passport (docs/access.md#authorities).
  org set-authority --org ORG_ID [--off]
      Mark an existing organization as an authority, or (--off) no longer.
  key create --org ORG_ID --env live|test --scopes a,b [--name NAME]
      Create an API key. Scopes: ${API_KEY_SCOPES.join(', ')}.
  key revoke --org ORG_ID --key KEY_ID
      Revoke a key; it stops working everywhere within 5 seconds.
  key rate-limit --org ORG_ID --key KEY_ID --per-minute N
      Set a key's rate limit (requests a minute); in effect within 5 seconds.
  user add --org ORG_ID --email EMAIL
      Make the user with this email a member of the organization (creating the user if needed);
      they sign in to the dashboard through the identity provider with that email.
  session create --org ORG_ID --email EMAIL [--json]
      Local stack only, for development and scripted tests: a dashboard session of a member,
      printed as {cookie, csrfToken}. Send "Cookie: <cookie>", and on POST/DELETE also
      "X-CSRF-Token: <csrfToken>" and "Origin: <the stack's URL>".
  webhook create --org ORG_ID --env live|test --source headless-cms|custom [--mapping FILE] [--category C]
      Create a webhook endpoint; prints its id and its secret (shown once). A custom source needs
      a mapping file (see events/webhooks/custom-mapping.json).
  passports verify --org ORG_ID --product PRODUCT_ID [--env live|test]
      Recompute a product's passport digest chain from storage (docs/lifecycle.md#digest-chain) and
      say where it breaks; exits 1 on a break. --env defaults to live. --table TABLE reads another
      table (a restored one).
  keys rotate --org ORG_ID
      Make a new credential signing key current (docs/credentials.md#keys): new credentials are
      signed with it within a minute; old keys stay in the DID document, so old credentials verify.
  events index-types
      Give events written before the events-by-type index existed their index key, so that
      GET /v1/events?type=… lists them (docs/decisions.md#events-by-type-a-sparse-index). Scans
      the whole table once; safe to run again, and beside a running service.
  backup restore --org ORG_ID [--env live|test] [--to-table TABLE]
      Rebuild the organization's products, passports, batches and items with their version
      histories from the backup copy (docs/backup.md#restore) into its table, or into TABLE (either
      made when missing on the local stack; in AWS it must exist). Then run passports verify.
  backup verify --org ORG_ID [--env live|test] [--table TABLE]
      Compare the table (or TABLE) with the backup copy: lists each version missing on either
      side or stored with another digest, and each batch's or item's forked chain on either side
      (two versions under one number, a previousDigest that is not the prior version's digest, a
      digest its version does not give); exits 1 when there is any.
  items repair --org ORG_ID --product PRODUCT_ID (--serial SERIAL | --lot LOT) [--env live|test] [--dry-run]
      Repair an item's (or, with --lot, a batch's) forked digest chain, such as backup verify reports
      (docs/operator-cli.md#repairing-a-batch-or-an-item): from every version in the table and the
      backup copy, keep the longest consistent chain from version 1, make its newest version current
      and print the versions left out whole. --dry-run prints the same without writing. Exits 1 when
      the record changed meanwhile (run it again).
  dns set-txt --name NAME --value VALUE [--value VALUE…]
      Local stack only: publish TXT records at NAME on the stack's DNS server, replacing any
      there (no --value removes them), such as the record that verifies a brand domain.

Target: the local stack on PORT (default 3000), or AWS with --aws (TABLE_NAME, AWS_REGION).`;

class UsageError extends Error {}

function connect(aws: boolean): string {
  if (aws) {
    if (!process.env.TABLE_NAME) throw new UsageError('--aws needs TABLE_NAME (and AWS_REGION) in the environment.');
    delete process.env.DYNAMODB_ENDPOINT;
    return `AWS table ${process.env.TABLE_NAME}`;
  }
  const port = Number(process.env.PORT ?? 3000);
  const dataDir = resolve(process.env.DATA_DIR ?? join(REPO_ROOT, '.data'));
  const file = runFile(dataDir, port);
  const info = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StackInfo) : undefined;
  if (!info || !isAlive(info.pid)) {
    throw new UsageError(
      `No local stack is running on port ${port}. Start one with "npm start", set PORT to the port it runs on, or use --aws.`,
    );
  }
  Object.assign(process.env, {
    AWS_REGION: info.region,
    TABLE_NAME: info.tableName,
    DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
    RESOLVER_ORIGIN: info.resolverOrigin,
    PUBLIC_API_ORIGIN: info.url,
    SESSION_SECRET: info.sessionSecret,
    SECRETS_KEY: info.secretsKey,
    // The stack's local signing keys (infra/local/stack.ts).
    SIGNING_KEY_DIR: join(dataDir, 'signing-keys'),
    // The backup store (docs/backup.md); unset in a run file of a stack older than the backup copy.
    ...(info.backupBucket ? { BACKUP_BUCKET: info.backupBucket, S3_ENDPOINT: info.backupEndpoint } : {}),
  });
  return `local stack on port ${port}`;
}

/** The local stack's DNS records file (the stack's DNS server reads it on every query). */
function localDnsRecordsFile(): string {
  const port = Number(process.env.PORT ?? 3000);
  const dataDir = resolve(process.env.DATA_DIR ?? join(REPO_ROOT, '.data'));
  connect(false);
  return dnsRecordsFile(dataDir, port);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`Missing ${flag}.`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      org: { type: 'string' },
      env: { type: 'string' },
      scopes: { type: 'string' },
      key: { type: 'string' },
      product: { type: 'string' },
      email: { type: 'string' },
      'per-minute': { type: 'string' },
      source: { type: 'string' },
      mapping: { type: 'string' },
      category: { type: 'string' },
      value: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      aws: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      authority: { type: 'boolean', default: false },
      off: { type: 'boolean', default: false },
      table: { type: 'string' },
      'to-table': { type: 'string' },
      serial: { type: 'string' },
      lot: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const command = positionals.join(' ');
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const out = (human: string, data: unknown) => console.log(values.json ? JSON.stringify(data, null, 2) : human);

  switch (command) {
    case 'org create': {
      const name = required(values.name, '--name');
      const target = connect(values.aws);
      const { organization, keys } = await createOrganization(name);
      if (values.authority) await setAuthority(organization.orgId, true);
      out(
        `Created ${organization.orgId} (${name})${values.authority ? ', an authority,' : ''} on the ${target}\n  live key  ${keys.live.key}  (${keys.live.keyId})\n  test key  ${keys.test.key}  (${keys.test.keyId})`,
        { ...organization, ...(values.authority ? { authority: true } : {}), keys },
      );
      return 0;
    }
    case 'org set-authority': {
      const orgId = required(values.org, '--org');
      connect(values.aws);
      if (!(await setAuthority(orgId, !values.off))) throw new UsageError(`No organization ${orgId}.`);
      out(`${orgId} is ${values.off ? 'no longer' : 'now'} an authority: its keys read ${values.off ? 'by grants only' : 'the authority tier of every live passport'}.`, { orgId, authority: !values.off });
      return 0;
    }
    case 'key create': {
      const orgId = required(values.org, '--org');
      const environment = required(values.env, '--env');
      if (!isEnvironment(environment)) throw new UsageError('--env must be live or test.');
      const scopes = required(values.scopes, '--scopes').split(',').map((s) => s.trim()).filter(Boolean);
      const bad = scopes.find((s) => !isScope(s) || !API_KEY_SCOPES.includes(s));
      if (bad !== undefined || scopes.length === 0) {
        throw new UsageError(`Unknown or session-only scope "${bad ?? ''}". Scopes: ${API_KEY_SCOPES.join(', ')}.`);
      }
      connect(values.aws);
      if (!(await getOrganization(orgId))) throw new UsageError(`No organization ${orgId}.`);
      const { key, record } = await issueApiKey({
        orgId,
        environment,
        scopes: scopes as Scope[],
        name: values.name ?? 'CLI key',
      });
      out(`Created ${record.keyId}: ${key}\n  scopes: ${record.scopes.join(', ')}`, {
        keyId: record.keyId,
        key,
        orgId,
        environment,
        scopes: record.scopes,
        name: record.name,
        createdAt: record.createdAt,
      });
      return 0;
    }
    case 'key revoke': {
      const orgId = required(values.org, '--org');
      const keyId = required(values.key, '--key');
      connect(values.aws);
      const revoked = await revokeKey(orgId, keyId);
      if (!revoked) throw new UsageError(`No key ${keyId} in organization ${orgId}.`);
      out(`Revoked ${keyId} at ${revoked.revokedAt}`, { keyId, revoked: true, revokedAt: revoked.revokedAt });
      return 0;
    }
    case 'key rate-limit': {
      const orgId = required(values.org, '--org');
      const keyId = required(values.key, '--key');
      const perMinute = Number(required(values['per-minute'], '--per-minute'));
      if (!Number.isInteger(perMinute) || perMinute < 1) throw new UsageError('--per-minute must be a whole number of requests, at least 1.');
      connect(values.aws);
      const updated = await setApiKeyRateLimit(orgId, keyId, perMinute);
      if (!updated) throw new UsageError(`No key ${keyId} in organization ${orgId}.`);
      out(`${keyId} may now make ${perMinute} requests a minute (in effect within 5 seconds).`, { keyId, rateLimitPerMinute: perMinute });
      return 0;
    }
    case 'user add': {
      const orgId = required(values.org, '--org');
      const email = normalizeEmail(required(values.email, '--email'));
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError('--email must be an email address.');
      const target = connect(values.aws);
      const organization = await getOrganization(orgId);
      if (!organization) throw new UsageError(`No organization ${orgId}.`);
      const { user, added } = await addUserToOrganization(organization, email);
      out(`${added ? 'Added' : 'Already a member:'} ${email} (${user.userId}) in ${orgId} on the ${target}`, {
        userId: user.userId,
        email,
        orgId,
        added,
      });
      return 0;
    }
    case 'session create': {
      const orgId = required(values.org, '--org');
      const email = normalizeEmail(required(values.email, '--email'));
      if (values.aws) throw new UsageError('session create works on the local stack only: in AWS, sign in through the identity provider.');
      connect(false);
      const userId = await findUserIdByEmail(email);
      const user = userId ? await getUser(userId) : undefined;
      if (!user || !(await getMembership(orgId, user.userId))) {
        throw new UsageError(`${email} is not a member of ${orgId}: add them first with "user add".`);
      }
      const session = await startSession(user, { orgId, environment: 'live' });
      out(`Cookie: ${session.cookie}\nX-CSRF-Token: ${session.csrfToken}`, {
        cookie: session.cookie,
        csrfToken: session.csrfToken,
        expiresAt: new Date(session.expiresAt * 1000).toISOString(),
      });
      return 0;
    }
    case 'webhook create': {
      const orgId = required(values.org, '--org');
      const environment = required(values.env, '--env');
      if (!isEnvironment(environment)) throw new UsageError('--env must be live or test.');
      const input = createEndpointSchema.safeParse({
        source: required(values.source, '--source'),
        environment,
        ...(values.category ? { defaultCategory: values.category } : {}),
        ...(values.mapping ? { mapping: JSON.parse(readFileSync(values.mapping, 'utf8')) as unknown } : {}),
      });
      if (!input.success) throw new UsageError(toValidationError(input.error).message);
      connect(values.aws);
      if (!(await getOrganization(orgId))) throw new UsageError(`No organization ${orgId}.`);
      const { endpoint, secret } = await createEndpoint({ orgId, environment }, input.data);
      out(`Created ${endpoint.endpointId} (${endpoint.source}, ${environment})\n  secret  ${secret}  (shown once)`, {
        id: endpoint.endpointId,
        secret,
        source: endpoint.source,
        environment,
      });
      return 0;
    }
    case 'passports verify': {
      const orgId = required(values.org, '--org');
      const productId = required(values.product, '--product').toLowerCase();
      const environment = values.env ?? 'live';
      if (!isEnvironment(environment)) throw new UsageError('--env must be live or test.');
      connect(values.aws);
      if (values.table) process.env.TABLE_NAME = values.table;
      const report = await verifyPassportChain({ orgId, environment }, productId);
      if (!report) throw new UsageError(`No product ${productId} in ${orgId} (${environment}).`);
      const lines = report.versions.map((v) => `  v${v.version}  ${v.publishedAt}  ${v.digest}`);
      const verdict = report.broken
        ? `BROKEN at version ${report.broken.version}: ${report.broken.problem} (expected ${report.broken.expected}, found ${report.broken.found})`
        : `chain intact: ${report.versions.length} version${report.versions.length === 1 ? '' : 's'}`;
      out(`${productId}\n${lines.join('\n')}${lines.length ? '\n' : ''}${verdict}`, { ...report, intact: !report.broken });
      return report.broken ? 1 : 0;
    }
    case 'keys rotate': {
      const orgId = required(values.org, '--org');
      const target = connect(values.aws);
      const key = await rotateSigningKey(orgId);
      out(`Signing key ${key.keyId} of ${orgId} is current on the ${target}; earlier keys stay in the DID document.`, { orgId, keyId: key.keyId, kind: key.kind, createdAt: key.createdAt });
      return 0;
    }
    case 'events index-types': {
      const target = connect(values.aws);
      const progress = (p: { scanned: number; updated: number }) => {
        if (!values.json) process.stderr.write(`\r${p.scanned} items scanned, ${p.updated} events indexed`);
      };
      const done = await backfillEventTypeIndex({ onPage: progress });
      if (!values.json) process.stderr.write('\n');
      out(`${done.updated} event${done.updated === 1 ? '' : 's'} given their type's index key on the ${target} (${done.scanned} items scanned).`, done);
      return 0;
    }
    case 'backup restore':
    case 'backup verify': {
      const orgId = required(values.org, '--org');
      const environment = values.env ?? 'live';
      if (!isEnvironment(environment)) throw new UsageError('--env must be live or test.');
      const target = connect(values.aws);
      if (!process.env.BACKUP_BUCKET) throw new UsageError('No backup store: set BACKUP_BUCKET (with --aws), or restart the local stack so that it starts one.');
      const tenant = { orgId, environment };
      if (command === 'backup verify') {
        const table = values.table ?? String(process.env.TABLE_NAME);
        const { versions, findings } = await verifyTenant(tenant, table);
        const lines = findings.map(
          (f) => `  ${f.problem.padEnd(20)} ${f.key}${f.tableDigest ? `  table ${f.tableDigest}` : ''}${f.backupDigest ? `  backup ${f.backupDigest}` : ''}${f.side ? `  in the ${f.side}: ${f.digests?.join(' ')}` : ''}`,
        );
        if (findings.some((f) => f.side)) lines.push('  A forked chain of a batch or item: repair it with "items repair" (docs/operator-cli.md#repairing-a-batch-or-an-item).');
        out(`${versions} version${versions === 1 ? '' : 's'} of ${orgId} (${environment}) in ${table} and the backup copy: ${findings.length ? `${findings.length} finding${findings.length === 1 ? '' : 's'}\n${lines.join('\n')}` : 'the same on both sides, each chain intact'}`, { versions, findings });
        return findings.length ? 1 : 0;
      }
      const table = values['to-table'] ?? String(process.env.TABLE_NAME);
      // Locally the table is made when missing: a lost table (deleted, or a new DynamoDB Local) is rebuilt in place.
      if (!values.aws && process.env.DYNAMODB_ENDPOINT) await ensureTable(process.env.DYNAMODB_ENDPOINT, table, process.env.AWS_REGION);
      const report = await restoreTenant(tenant, table);
      out(
        `Restored ${report.products} product${report.products === 1 ? '' : 's'}, ${report.passportVersions} passport version${report.passportVersions === 1 ? '' : 's'} and ${report.unitVersions} batch or item version${report.unitVersions === 1 ? '' : 's'} of ${orgId} (${environment}) into ${table} on the ${target}${report.unreadable.length ? `; ${report.unreadable.length} unreadable object(s) left out:\n  ${report.unreadable.join('\n  ')}` : ''}.`,
        report,
      );
      return report.unreadable.length ? 1 : 0;
    }
    case 'items repair': {
      const orgId = required(values.org, '--org');
      const productId = required(values.product, '--product').toLowerCase();
      const environment = values.env ?? 'live';
      if (!isEnvironment(environment)) throw new UsageError('--env must be live or test.');
      if ((values.serial === undefined) === (values.lot === undefined)) throw new UsageError('Give one of --serial (an item) or --lot (a batch).');
      const kind = values.serial === undefined ? 'batch' : 'item';
      const value = values.serial ?? values.lot ?? '';
      connect(values.aws);
      const tenant = { orgId, environment };
      const product = await getProduct(tenant, productId, true);
      if (!product) throw new UsageError(`No product ${productId} in ${orgId} (${environment}).`);
      // The backup copy holds every version once made current: a version the table lost to a forked write is there.
      const report = await repairUnitChain(tenant, product.gtin, kind, value, { backup: Boolean(process.env.BACKUP_BUCKET), dryRun: values['dry-run'] });
      if (!report) throw new UsageError(`Product ${productId} has no ${kind} '${value}' in the table${process.env.BACKUP_BUCKET ? ' or the backup copy' : ''}.`);
      const found = report.findings.map((f) => `  ${f.problem.padEnd(18)} v${f.version}  ${f.digests.join(' ')}`);
      const dropped = report.dropped.map((u) => `  v${u.version}  ${u.digest}  ${u.updatedAt}  ${JSON.stringify({ lot: u.lot ?? null, status: u.status, data: u.data })}`);
      const head = report.chain.at(-1);
      const verdict = {
        intact: `chain intact: ${report.chain.length} version${report.chain.length === 1 ? '' : 's'}, nothing written`,
        planned: `would keep versions 1 to ${head?.version} and make v${head?.version} current (dry run: nothing written)`,
        repaired: `kept versions 1 to ${head?.version}; v${head?.version} is current`,
        conflict: `the ${kind} changed while it was repaired: nothing current was replaced; run it again`,
      }[report.outcome];
      const restored = report.chain.filter((v) => v.from === 'backup').map((v) => `v${v.version}`);
      out(
        [
          `${kind} '${value}' of ${productId} (${orgId}, ${environment})`,
          ...(found.length ? ['found:', ...found] : []),
          ...(restored.length ? [`from the backup copy: ${restored.join(', ')}`] : []),
          ...(dropped.length ? ['left out (on no consistent chain from version 1):', ...dropped] : []),
          verdict,
        ].join('\n'),
        report,
      );
      return report.outcome === 'conflict' ? 1 : 0;
    }
    case 'dns set-txt': {
      const name = required(values.name, '--name').trim().toLowerCase().replace(/\.$/, '');
      if (values.aws) throw new UsageError('dns set-txt works on the local stack only: in AWS, publish the record at your DNS provider.');
      if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9])?)+$/.test(name)) throw new UsageError('--name must be a DNS name, such as _passport-challenge.id.brand.example.');
      const valuesToSet = values.value ?? [];
      setTxtRecords(localDnsRecordsFile(), name, valuesToSet);
      out(valuesToSet.length ? `TXT ${name}: ${valuesToSet.map((v) => JSON.stringify(v)).join(' ')}` : `TXT ${name}: removed`, { name, type: 'TXT', values: valuesToSet });
      return 0;
    }
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`admin: ${error instanceof UsageError || error instanceof TypeError ? error.message : String(error)}`);
    process.exit(error instanceof UsageError || error instanceof TypeError ? 2 : 1);
  },
);
