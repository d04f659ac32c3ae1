import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newSessionSecret } from '../../lib/auth/session-key.ts';
import { newSecretsKey } from '../../lib/data/secret-box.ts';
import { buildDashboard, DASHBOARD_DIST } from '../../dashboard/build.ts';
import { ROUTES, type FunctionName } from '../../lib/api/routes.ts';
import { checkDependencies, type DependencyCheck, type ReadinessTarget } from '../../lib/data/readiness.ts';
import { isDependencyUnavailable } from '../../lib/data/unavailable.ts';
import { FUNCTIONS } from '../functions.ts';
import { DASHBOARD_PATH, dashboardFiles } from './dashboard.ts';
import { dnsRecordsFile, startDns } from './dns.ts';
import { ensureTable, startDynamoDbLocal, type LocalDynamo } from './dynamodb.ts';
import { localFunctionEnvironment } from './environment.ts';
import { startGateway, type LambdaHandler } from './gateway.ts';
import { startIdentityProvider, type DevAccount } from './identity-provider.ts';
import { startPoller, type SqsHandler } from './poller.ts';
import { startQueueEndpoint, startQueues, type QueueEndpoint } from './queue.ts';
import { startStreamPoller, type StreamHandler } from './table-stream.ts';
import { startBackupStore } from './backup-store.ts';
import { startRegistryEmulator } from './registry-emulator.ts';
import { BACKED_UP_TYPES } from '../../lib/services/backup.ts';
import { inspectCallbackUrl } from '../../lib/domain/inspect.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface StackOptions {
  /** Gateway port; 0 picks a free one. */
  port: number;
  /** Keep DynamoDB data in memory instead of under `dataDir`. */
  memory: boolean;
  dataDir: string;
  tableName?: string;
  region?: string;
  resolverOrigin?: string;
  /** The scan queue's visibility timeout: how soon a failed message is retried (default 30 s). */
  queueVisibilitySeconds?: number;
  /** The local event source mapping's batching (defaults: the aggregator's trigger in the route table). */
  scanBatchSize?: number;
  scanBatchWindowMs?: number;
  /** Accounts of the development identity provider (default: the demo account). */
  devAccounts?: DevAccount[];
  /** Where the dashboard is built and served from (default dashboard/dist). */
  dashboardDir?: string;
  /** The waits before each retry of a failed outbound webhook (default: the production schedule, lib/domain/event-subscription.ts). */
  eventRetryScheduleSeconds?: readonly number[];
  /** How long the resolver answers a GTIN from what it read (default 1000 ms; 0: every scan reads, functions/resolver/hot-cache.ts). */
  resolverViewCacheMs?: number;
  /** Anonymous read-API requests a minute per client address (default 120; lib/auth/anonymous-rate-limit.ts). */
  anonymousRateLimitPerMinute?: number;
  /**
   * Copy each passport version's page in every language to the public backup copy, as in AWS
   * (BACKUP_PUBLIC_PAGES=all; docs/backup.md#locally). Default off: 24 more puts a version load
   * fauxqs, which also serves the queues.
   */
  backupPublicPages?: boolean;
  /**
   * Told when the stack's readiness changes (a dependency stops or starts answering; checked every
   * second, as GET /ready checks: lib/data/readiness.ts). Default: a line on the console.
   */
  onReadinessChange?: (change: ReadinessChange) => void;
  /**
   * The EU registry emulator (infra/local/registry-emulator.ts): how long an entry stays pending
   * before it is registered or rejected (default REGISTRY_EMULATOR_DELAY_MS, else 1000 ms).
   */
  registryEmulator?: { registeredAfterMs?: number };
}

/** The stack became ready again, or stopped being ready: which dependencies fail now. */
export interface ReadinessChange {
  ready: boolean;
  failed: DependencyCheck[];
  at: Date;
}

/**
 * A child process of the stack that a fault test may kill, by its PID, and start again where it
 * was (the same port, the same data): DynamoDB Local, and the SQS endpoint in front of fauxqs
 * (infra/local/queue-endpoint.ts). Killing one is an outage as a function sees it.
 */
export interface LocalProcess {
  /** The running process's id; undefined once it has exited. */
  pid(): number | undefined;
  /** Starts it again on its port, unless it runs; resolves once it answers. */
  start(): Promise<void>;
}

/** The stack's killable child processes by name (GET /_local/processes lists them). */
export type LocalProcessName = 'dynamodb' | 'sqs';

/** What a running stack tells its clients (the admin CLI reads it from the run file). */
export interface StackInfo {
  pid: number;
  port: number;
  url: string;
  memory: boolean;
  region: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  scanQueueUrl: string;
  scanDlqUrl: string;
  importQueueUrl: string;
  importDlqUrl: string;
  /** The event delivery queue of outbound webhooks (docs/webhooks-outbound.md) and its DLQ. */
  deliveryQueueUrl: string;
  deliveryDlqUrl: string;
  /** The registry outbox queue (docs/registry.md#the-outbox) and its DLQ. */
  registryOutboxQueueUrl: string;
  registryOutboxDlqUrl: string;
  resolverOrigin: string;
  /** The dashboard web app, served by the gateway. */
  dashboardUrl: string;
  /** The development identity provider (OIDC issuer) and the dashboard's client id there. */
  oidcIssuer: string;
  oidcClientId: string;
  /** The session cookie key of this stack (local development only; the run file is private). */
  sessionSecret: string;
  /** The key sealing webhook signing secrets at rest (SECRETS_KEY; in AWS a KMS key instead). */
  secretsKey: string;
  /** The local DNS server (DNS_SERVER, `127.0.0.1:port`) and the TXT records file it answers from (infra/local/dns.ts). */
  dnsServer: string;
  dnsRecordsFile: string;
  /** The backup store (docs/backup.md): its S3 endpoint (fauxqs behind infra/local/backup-store.ts), bucket, and where its objects are read unsigned. */
  backupEndpoint: string;
  backupBucket: string;
  /** The public copy (docs/backup.md#the-public-copy): its bucket, and the origin its objects are read from unsigned. */
  backupPublicBucket: string;
  backupPublicOrigin: string;
  /** The exports bucket in the same store: the archives of POST /v1/exports/archive (docs/import-export.md#leaving-the-archive). */
  exportsBucket: string;
  /**
   * The EU registry emulator (docs/registry.md#the-client-and-the-emulator): its base URL (the
   * admin endpoints under `/_emulator/`), token endpoint, and the client id and secret it knows;
   * both the production and the acceptance registry of the functions point at it.
   */
  registryBaseUrl: string;
  registryTokenUrl: string;
  registryClientId: string;
  registryClientSecret: string;
}

export interface LocalStack {
  info: StackInfo;
  processes: Readonly<Record<LocalProcessName, LocalProcess>>;
  stop(): Promise<void>;
}

/** A child process that is restarted where it was: `launch` starts one instance, `port` the first one's. */
function restartable<T extends { process: ChildProcess; stop(): Promise<void> }>(first: T, launch: () => Promise<T>): { handle: LocalProcess; stop(): Promise<void> } {
  let current = first;
  let starting: Promise<void> | undefined;
  const running = () => current.process.exitCode === null && current.process.signalCode === null;
  return {
    handle: {
      pid: () => (running() ? current.process.pid : undefined),
      start: () => {
        if (running()) return Promise.resolve();
        starting ??= launch()
          .then((next) => {
            current = next;
          })
          .finally(() => (starting = undefined));
        return starting;
      },
    },
    stop: async () => {
      await starting?.catch(() => undefined);
      await current.stop();
    },
  };
}

/**
 * Checks the dependencies every second, as GET /ready does, and tells `report` when readiness
 * changes: when one stops answering (two checks in a row, so that one slow moment of a busy machine
 * is no outage), and when all answer again. Stops with the stack.
 */
function watchReadiness(target: ReadinessTarget, report: (change: ReadinessChange) => void): () => Promise<void> {
  let ready = true;
  let failing = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = checkDependencies(target).then((checks) => {
      if (stopped) return;
      const failed = checks.filter((check) => !check.ok);
      failing = failed.length ? failing + 1 : 0;
      const now = ready ? failing < 2 : failing === 0;
      if (now !== ready) {
        ready = now;
        report({ ready, failed, at: new Date() });
      }
      timer = setTimeout(tick, 1000);
      timer.unref();
    });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running.catch(() => undefined);
  };
}

/**
 * A poller's failure: a dependency that does not answer (a fault test killed it; the poller retries
 * until it answers again) in one line, anything else whole.
 */
function reportPollerError(name: string, error: unknown): void {
  if (!isDependencyUnavailable(error)) return console.error(`[${name}]`, error);
  const e = error as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  console.error(`[${name}] a dependency does not answer (${String(e.code ?? e.cause?.code ?? e.name)}): retrying until it does`);
}

const printReadiness = ({ ready, failed, at }: ReadinessChange): void =>
  console.log(
    ready
      ? `[ready] ${at.toISOString()} ready: the table and the queues answer`
      : `[ready] ${at.toISOString()} NOT ready: ${failed.map(({ name, reason }) => `${name} (${reason ?? 'no answer'})`).join(', ')} (GET /ready)`,
  );

export const runFile = (dataDir: string, port: number): string => join(dataDir, 'run', `stack-${port}.json`);

/** A memory run gets a new session key; a persistent one keeps its key in `.data/session-secret`. */
function localSessionSecret(options: StackOptions): string {
  if (options.memory) return newSessionSecret();
  const file = join(options.dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = newSessionSecret();
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The same for the key sealing webhook secrets: `.data/secrets-key`, made on first start (or
 * SECRETS_KEY when set). Losing it makes the stored webhook secrets unreadable: rotate them.
 */
function localSecretsKey(options: StackOptions): string {
  if (process.env.SECRETS_KEY) return process.env.SECRETS_KEY;
  if (options.memory) return newSecretsKey();
  const file = join(options.dataDir, 'secrets-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = newSecretsKey();
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * The whole system on one machine: DynamoDB Local, fauxqs and the gateway calling the functions'
 * own handlers, configured through the same environment variables Lambda gets in AWS.
 */
export async function startLocalStack(options: StackOptions): Promise<LocalStack> {
  const region = options.region ?? 'eu-central-1';
  const tableName = options.tableName ?? 'product-passport';
  const dashboardDir = options.dashboardDir ?? DASHBOARD_DIST;
  // The dashboard's static files (esbuild, well under a second), built while DynamoDB Local starts.
  const dashboardBuilt = buildDashboard(dashboardDir);
  dashboardBuilt.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  const dbPath = options.memory ? {} : { dbPath: join(options.dataDir, 'dynamodb') };
  const firstDynamo = await startDynamoDbLocal(dbPath);
  // Started again on its port after a fault; in memory it starts empty, so the table is made again.
  const dynamo = restartable<LocalDynamo>(firstDynamo, async () => {
    const next = await startDynamoDbLocal({ ...dbPath, port: Number(new URL(firstDynamo.endpoint).port) });
    await ensureTable(next.endpoint, tableName, region);
    return next;
  });
  const stops: Array<() => Promise<void>> = [dynamo.stop];
  try {
    const queues = await startQueues(region, options.queueVisibilitySeconds);
    stops.unshift(queues.stop);
    // Every client reaches fauxqs through the endpoint process, which a fault test may kill.
    const firstEndpoint = await startQueueEndpoint(queues.port);
    const sqsEndpoint = restartable<QueueEndpoint>(firstEndpoint, () => startQueueEndpoint(queues.port, firstEndpoint.port));
    stops.unshift(sqsEndpoint.stop);
    const processes: Record<LocalProcessName, LocalProcess> = { dynamodb: dynamo.handle, sqs: sqsEndpoint.handle };
    // The backup copy's store: fauxqs's S3, behind a relay that adds conditional puts (docs/backup.md).
    const backupStore = await startBackupStore(queues.port);
    stops.unshift(backupStore.stop);
    await ensureTable(firstDynamo.endpoint, tableName, region);
    await dashboardBuilt;
    const dashboard = dashboardFiles(dashboardDir);

    const handlers = new Map<FunctionName, Promise<LambdaHandler>>();
    let ready = false;
    const processList = () => Object.fromEntries(Object.entries(processes).map(([name, p]) => [name, { pid: p.pid() ?? null, running: p.pid() !== undefined }]));
    const gateway = await startGateway({
      port: options.port,
      routes: ROUTES,
      loadHandler: (fn) => {
        let loaded = handlers.get(fn);
        if (!loaded) {
          const url = pathToFileURL(join(REPO_ROOT, FUNCTIONS[fn].entry)).href;
          loaded = import(url).then((mod: { handler: LambdaHandler }) => mod.handler);
          handlers.set(fn, loaded);
        }
        return loaded;
      },
      local: (req) => {
        // Start a killed child process again (`POST /_local/processes/dynamodb/start`); nothing when it runs.
        const start = /^\/_local\/processes\/(dynamodb|sqs)\/start$/.exec(req.url ?? '');
        if (req.method === 'POST' && start) {
          const name = start[1] as LocalProcessName;
          return processes[name].start().then(() => ({ status: 200, body: processList()[name] }));
        }
        if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
        if (req.url === '/health') return { status: ready ? 200 : 503, body: { status: ready ? 'ok' : 'starting' } };
        // Local only, for tests and curious developers: what the resolver put on the scan queue.
        if (req.url === '/_local/scan-events') return { status: 200, body: { data: queues.sentScanEvents() } };
        if (req.url === '/_local/queues') return { status: 200, body: queues.depths() };
        // Local only, for the backup bench (test/bench/backup.ts): requests the backup store answered, by kind.
        if (req.url === '/_local/backup-store') return { status: 200, body: backupStore.counts() };
        // Local only, for the soak test (test/bench/soak.ts): the killable child processes, by PID.
        if (req.url === '/_local/processes') return { status: 200, body: processList() };
        return dashboard(req);
      },
    });
    stops.unshift(gateway.stop);
    const identityProvider = await startIdentityProvider({
      redirectUris: [`${gateway.url}/v1/auth/callback`],
      // The provider stands for a market surveillance authority's too (AUTHORITY_ISSUERS, infra/local/environment.ts).
      inspectRedirectUris: [inspectCallbackUrl(gateway.url)],
      ...(options.devAccounts ? { accounts: options.devAccounts } : {}),
    });
    stops.unshift(identityProvider.stop);
    // The EU registry, emulated (docs/registry.md#the-client-and-the-emulator).
    const delayFromEnv = Number(process.env.REGISTRY_EMULATOR_DELAY_MS);
    const registry = await startRegistryEmulator({
      registeredAfterMs: options.registryEmulator?.registeredAfterMs ?? (process.env.REGISTRY_EMULATOR_DELAY_MS && Number.isInteger(delayFromEnv) && delayFromEnv >= 0 ? delayFromEnv : 1000),
    });
    stops.unshift(registry.stop);
    // Brand domains are verified against this server's TXT records (`npm run admin -- dns set-txt`).
    const recordsFile = dnsRecordsFile(options.dataDir, gateway.port);
    const dns = await startDns(recordsFile);
    stops.unshift(async () => {
      await dns.stop();
      rmSync(recordsFile, { force: true });
    });

    const info: StackInfo = {
      pid: process.pid,
      port: gateway.port,
      url: gateway.url,
      memory: options.memory,
      region,
      tableName,
      dynamodbEndpoint: firstDynamo.endpoint,
      sqsEndpoint: firstEndpoint.endpoint,
      scanQueueUrl: queues.scanQueueUrl,
      scanDlqUrl: queues.scanDlqUrl,
      importQueueUrl: queues.importQueueUrl,
      importDlqUrl: queues.importDlqUrl,
      deliveryQueueUrl: queues.deliveryQueueUrl,
      deliveryDlqUrl: queues.deliveryDlqUrl,
      registryOutboxQueueUrl: queues.registryOutboxQueueUrl,
      registryOutboxDlqUrl: queues.registryOutboxDlqUrl,
      resolverOrigin: options.resolverOrigin ?? gateway.url,
      dashboardUrl: `${gateway.url}${DASHBOARD_PATH}`,
      oidcIssuer: identityProvider.issuer,
      oidcClientId: identityProvider.clientId,
      sessionSecret: localSessionSecret(options),
      secretsKey: localSecretsKey(options),
      dnsServer: dns.server,
      dnsRecordsFile: recordsFile,
      backupEndpoint: backupStore.endpoint,
      backupBucket: backupStore.bucket,
      backupPublicBucket: backupStore.publicBucket,
      backupPublicOrigin: backupStore.publicOrigin,
      exportsBucket: backupStore.exportsBucket,
      registryBaseUrl: registry.baseUrl,
      registryTokenUrl: registry.tokenUrl,
      registryClientId: registry.clientId,
      registryClientSecret: registry.clientSecret,
    };
    // The functions read their configuration from the environment, as they do in Lambda.
    Object.assign(process.env, localFunctionEnvironment(info, options, process.env));
    Object.assign(process.env, { BACKUP_BUCKET: info.backupBucket, BACKUP_PUBLIC_BUCKET: info.backupPublicBucket, BACKUP_PUBLIC_ORIGIN: info.backupPublicOrigin, ...(options.backupPublicPages ? { BACKUP_PUBLIC_PAGES: 'all' } : {}), EXPORTS_BUCKET: info.exportsBucket, S3_ENDPOINT: info.backupEndpoint });

    // Lambda's SQS event source mapping, played locally for every function a queue triggers.
    const queueOf = {
      scan: { url: queues.scanQueueUrl, arn: queues.scanQueueArn },
      import: { url: queues.importQueueUrl, arn: queues.importQueueArn },
      delivery: { url: queues.deliveryQueueUrl, arn: queues.deliveryQueueArn },
      registryOutbox: { url: queues.registryOutboxQueueUrl, arn: queues.registryOutboxQueueArn },
    };
    for (const [name, spec] of Object.entries(FUNCTIONS)) {
      if (!spec.trigger) continue;
      if (spec.trigger.kind === 'tableStream') {
        // Lambda's DynamoDB Streams event source mapping, filtered to one item type.
        const streamPoller = await startStreamPoller({
          endpoint: info.dynamodbEndpoint,
          region,
          tableName,
          functionName: name,
          itemType: spec.trigger.itemType,
          batchSize: spec.trigger.batchSize,
          ...(spec.trigger.retryAttempts === undefined ? {} : { retryAttempts: spec.trigger.retryAttempts }),
          loadHandler: async () => ((await import(pathToFileURL(join(REPO_ROOT, spec.entry)).href)) as { handler: StreamHandler }).handler,
          onError: (error) => reportPollerError(name, error),
        });
        stops.unshift(streamPoller.stop);
        continue;
      }
      const scan = spec.trigger.queue === 'scan';
      // Lambda runs an import's chunks concurrently: two pollers play that (and its races on the job's counters).
      for (let copy = 0; copy < (scan ? 1 : 2); copy++) {
        const poller = startPoller({
          endpoint: info.sqsEndpoint,
          region,
          queueUrl: queueOf[spec.trigger.queue].url,
          queueArn: queueOf[spec.trigger.queue].arn,
          functionName: name,
          batchSize: (scan ? options.scanBatchSize : undefined) ?? spec.trigger.batchSize,
          batchWindowMs: (scan ? options.scanBatchWindowMs : undefined) ?? spec.trigger.maxBatchingWindowSeconds * 1000,
          loadHandler: async () => ((await import(pathToFileURL(join(REPO_ROOT, spec.entry)).href)) as { handler: SqsHandler }).handler,
          onError: (error) => reportPollerError(name, error),
        });
        stops.unshift(poller.stop);
      }
    }

    // EventBridge's daily rule, played locally: the sweep for proofs of registration due for renewal
    // goes on the outbox queue once a day while the stack runs (docs/registry.md#proof-of-registration).
    stops.unshift(scheduleRenewalSweep(info.sqsEndpoint, region, queues.registryOutboxQueueUrl));

    // The backup copy: Lambda's stream mapping filters to the item types of published versions
    // (infra/cdk/constructs/backup.ts); the local poller takes one type, so one poller each.
    for (const itemType of BACKED_UP_TYPES) {
      const backupPoller = await startStreamPoller({
        endpoint: info.dynamodbEndpoint,
        region,
        tableName,
        functionName: `backup-${itemType}`,
        itemType,
        batchSize: 100,
        loadHandler: async () => ((await import(pathToFileURL(join(REPO_ROOT, 'functions/backup/handler.ts')).href)) as { handler: StreamHandler }).handler,
        onError: (error) => console.error('[backup]', error),
      });
      stops.unshift(backupPoller.stop);
    }

    const file = runFile(options.dataDir, info.port);
    mkdirSync(join(options.dataDir, 'run'), { recursive: true });
    writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    stops.unshift(async () => rmSync(file, { force: true }));
    ready = true;
    stops.unshift(
      watchReadiness(
        {
          region,
          tableName,
          dynamodbEndpoint: info.dynamodbEndpoint,
          sqsEndpoint: info.sqsEndpoint,
          queues: { scanQueue: info.scanQueueUrl, importQueue: info.importQueueUrl, deliveryQueue: info.deliveryQueueUrl },
        },
        options.onReadinessChange ?? printReadiness,
      ),
    );
    return {
      info,
      processes,
      stop: async () => {
        for (const stop of stops) await stop();
      },
    };
  } catch (error) {
    for (const stop of stops) await stop().catch(() => undefined);
    throw error;
  }
}

/** Sends the proof renewal sweep's message to the outbox queue every day (infra/cdk/constructs/registry-outbox-pipeline.ts sets the same rule in AWS). */
function scheduleRenewalSweep(endpoint: string, region: string, queueUrl: string): () => Promise<void> {
  const sqs = new SQSClient({ region, endpoint, useQueueUrlAsEndpoint: false, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const timer = setInterval(() => {
    sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ kind: 'proof-renewals' }) })).catch((error: unknown) => reportPollerError('proof-renewal-sweep', error));
  }, 86_400_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    sqs.destroy();
  };
}
