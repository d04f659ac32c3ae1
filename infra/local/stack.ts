import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { newSessionSecret } from '../../lib/auth/session-key.ts';
import { newSecretsKey } from '../../lib/data/secret-box.ts';
import { buildDashboard, DASHBOARD_DIST } from '../../dashboard/build.ts';
import { ROUTES, type FunctionName } from '../../lib/api/routes.ts';
import { FUNCTIONS } from '../functions.ts';
import { DASHBOARD_PATH, dashboardFiles } from './dashboard.ts';
import { dnsRecordsFile, startDns } from './dns.ts';
import { ensureTable, startDynamoDbLocal } from './dynamodb.ts';
import { localFunctionEnvironment } from './environment.ts';
import { startGateway, type LambdaHandler } from './gateway.ts';
import { startIdentityProvider, type DevAccount } from './identity-provider.ts';
import { startPoller, type SqsHandler } from './poller.ts';
import { startQueues } from './queue.ts';
import { startStreamPoller, type StreamHandler } from './table-stream.ts';

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
}

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
}

export interface LocalStack {
  info: StackInfo;
  stop(): Promise<void>;
}

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
  const dynamo = await startDynamoDbLocal(options.memory ? {} : { dbPath: join(options.dataDir, 'dynamodb') });
  const stops: Array<() => Promise<void>> = [dynamo.stop];
  try {
    const queues = await startQueues(region, options.queueVisibilitySeconds);
    stops.unshift(queues.stop);
    await ensureTable(dynamo.endpoint, tableName, region);
    await dashboardBuilt;
    const dashboard = dashboardFiles(dashboardDir);

    const handlers = new Map<FunctionName, Promise<LambdaHandler>>();
    let ready = false;
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
        if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
        if (req.url === '/health') return { status: ready ? 200 : 503, body: { status: ready ? 'ok' : 'starting' } };
        // Local only, for tests and curious developers: what the resolver put on the scan queue.
        if (req.url === '/_local/scan-events') return { status: 200, body: { data: queues.sentScanEvents() } };
        if (req.url === '/_local/queues') return { status: 200, body: queues.depths() };
        return dashboard(req);
      },
    });
    stops.unshift(gateway.stop);
    const identityProvider = await startIdentityProvider({
      redirectUris: [`${gateway.url}/v1/auth/callback`],
      ...(options.devAccounts ? { accounts: options.devAccounts } : {}),
    });
    stops.unshift(identityProvider.stop);
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
      dynamodbEndpoint: dynamo.endpoint,
      sqsEndpoint: queues.endpoint,
      scanQueueUrl: queues.scanQueueUrl,
      scanDlqUrl: queues.scanDlqUrl,
      importQueueUrl: queues.importQueueUrl,
      importDlqUrl: queues.importDlqUrl,
      deliveryQueueUrl: queues.deliveryQueueUrl,
      deliveryDlqUrl: queues.deliveryDlqUrl,
      resolverOrigin: options.resolverOrigin ?? gateway.url,
      dashboardUrl: `${gateway.url}${DASHBOARD_PATH}`,
      oidcIssuer: identityProvider.issuer,
      oidcClientId: identityProvider.clientId,
      sessionSecret: localSessionSecret(options),
      secretsKey: localSecretsKey(options),
      dnsServer: dns.server,
      dnsRecordsFile: recordsFile,
    };
    // The functions read their configuration from the environment, as they do in Lambda.
    Object.assign(process.env, localFunctionEnvironment(info, options, process.env));

    // Lambda's SQS event source mapping, played locally for every function a queue triggers.
    const queueOf = {
      scan: { url: queues.scanQueueUrl, arn: queues.scanQueueArn },
      import: { url: queues.importQueueUrl, arn: queues.importQueueArn },
      delivery: { url: queues.deliveryQueueUrl, arn: queues.deliveryQueueArn },
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
          loadHandler: async () => ((await import(pathToFileURL(join(REPO_ROOT, spec.entry)).href)) as { handler: StreamHandler }).handler,
          onError: (error) => console.error(`[${name}]`, error),
        });
        stops.unshift(streamPoller.stop);
        continue;
      }
      const scan = spec.trigger.queue === 'scan';
      // Lambda runs an import's chunks concurrently: two pollers play that (and its races on the job's counters).
      for (let copy = 0; copy < (scan ? 1 : 2); copy++) {
        const poller = startPoller({
          endpoint: queues.endpoint,
          region,
          queueUrl: queueOf[spec.trigger.queue].url,
          queueArn: queueOf[spec.trigger.queue].arn,
          functionName: name,
          batchSize: (scan ? options.scanBatchSize : undefined) ?? spec.trigger.batchSize,
          batchWindowMs: (scan ? options.scanBatchWindowMs : undefined) ?? spec.trigger.maxBatchingWindowSeconds * 1000,
          loadHandler: async () => ((await import(pathToFileURL(join(REPO_ROOT, spec.entry)).href)) as { handler: SqsHandler }).handler,
          onError: (error) => console.error(`[${name}]`, error),
        });
        stops.unshift(poller.stop);
      }
    }

    const file = runFile(options.dataDir, info.port);
    mkdirSync(join(options.dataDir, 'run'), { recursive: true });
    writeFileSync(file, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    stops.unshift(async () => rmSync(file, { force: true }));
    ready = true;
    return {
      info,
      stop: async () => {
        for (const stop of stops) await stop();
      },
    };
  } catch (error) {
    for (const stop of stops) await stop().catch(() => undefined);
    throw error;
  }
}
