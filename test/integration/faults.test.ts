import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from '../../infra/local/dynamodb.ts';
import { startLocalStack, type LocalStack, type ReadinessChange } from '../../infra/local/stack.ts';
import { config } from '../../lib/config.ts';
import { callBudgetMs } from '../../lib/data/aws-budget.ts';
import { verifyTenant } from '../../lib/services/backup-restore.ts';
import { verifyPassportChain } from '../../lib/services/passport-chain.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import { admin } from '../support/admin.ts';
import { batteryModelData, batteryReading } from '../support/battery.ts';
import { RED_WINE } from '../support/fixtures.ts';
import { uniqueGtin13 } from '../support/gtin.ts';
import { until as waitUntil } from '../support/until.ts';

/**
 * Dependencies killed under a running service (docs/api.md#when-a-dependency-is-down,
 * docs/resolver.md#when-a-dependency-is-down): this file starts a stack of its own, on its own
 * ports with its data on disk, since the suite's shared stack serves other files meanwhile, and
 * kills that stack's own child processes by their PIDs: DynamoDB Local, then the SQS endpoint;
 * last it deletes the stack's table and restores the organization from the backup copy.
 * Every request goes through HTTP to that stack. DynamoDB Local gets SIGTERM, not SIGKILL: killed
 * with SIGKILL it loses the write it acknowledged last (docs/testing.md#faults), which DynamoDB
 * never does, and this test is about what the service loses.
 */
let stack: LocalStack;
let dataDir: string;
let key: string;
let orgId: string;
const readiness: ReadinessChange[] = [];

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  ms: number;
}

async function http(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const started = Date.now();
  const url = path.startsWith('http') ? path : `${stack.info.url}${path}`;
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    headers: { authorization: `Bearer ${key}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') && text ? (JSON.parse(text) as unknown) : undefined;
  return { status: response.status, headers: response.headers, text, body: json, ms: Date.now() - started };
}

/** Waits for a condition, every 200 ms for at most `timeoutMs` (default 120 s). */
const until = <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 120_000) => waitUntil(what, check, timeoutMs, 200);

const readyIs = (status: number) => until(`GET /ready to answer ${status}`, async () => ((await http('GET', '/ready')).status === status ? true : undefined));

async function publishedProduct(name: string): Promise<{ productId: string; qrCodeUrl: string; gtin: string }> {
  const gtin = uniqueGtin13();
  const created = await http('POST', '/v1/products', { body: { name, category: 'wine', gtin } });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const published = await http('POST', '/v1/passports', { body: { productId: created.body.productId, data: RED_WINE } });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${published.text}`);
  return { productId: created.body.productId, qrCodeUrl: created.body.qrCodeUrl, gtin };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'passport-faults-'));
  // On disk, not in memory: DynamoDB Local killed and started again keeps what it acknowledged.
  stack = await startLocalStack({
    port: 0,
    memory: false,
    dataDir,
    queueVisibilitySeconds: 5,
    scanBatchWindowMs: 200,
    dashboardDir: join(dataDir, 'dashboard'),
    // The resolver's hot cache on, as in AWS (the shared stack turns it off).
    resolverViewCacheMs: 1000,
    // The public copy with every page, as in AWS (docs/backup.md#the-public-copy).
    backupPublicPages: true,
    onReadinessChange: (change) => readiness.push(change),
  });
  // This worker's data layer now points at this stack (startLocalStack set the environment).
  const { organization, keys } = await createOrganization('Faults Org');
  key = keys.live.key;
  orgId = organization.orgId;
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('DynamoDB Local killed, then started again', () => {
  it('answers 503 with Retry-After within the budget, /ready names the table, /health stays 200, the backup URL serves the passport; afterwards everything answers, nothing acknowledged is lost, and an Idempotency-Key retry creates once', async () => {
    // Prepare: a product acknowledged before the outage, and one never scanned yet
    const before = await publishedProduct('Acknowledged before the outage');
    const scanned = await publishedProduct('Scanned during the outage');
    const gtin = uniqueGtin13();
    const idempotencyKey = crypto.randomUUID();
    const create = () => http('POST', '/v1/products', { body: { name: 'Created across the outage', category: 'wine', gtin }, headers: { 'idempotency-key': idempotencyKey } });
    // The passport's backup URL (docs/backup.md#the-public-copy), once the copy has written it.
    const { backupUrl } = (await http('GET', `/v1/products/${scanned.productId}/passport`)).body as { backupUrl: string };
    const frenchPage = backupUrl.replace(/passport\.json$/, 'fr');
    await until('the public copy of the passport', async () => ((await fetch(frenchPage)).status === 200 && (await fetch(backupUrl)).status === 200 ? true : undefined));
    const primaryPage = await (await fetch(`${stack.info.url}${new URL(frenchPage).pathname.replace(/^\/[^/]+/, '')}`)).text();

    // Act: kill DynamoDB Local by its PID
    const pid = stack.processes.dynamodb.pid();
    if (pid === undefined) throw new Error('DynamoDB Local is not running');
    const printed = readiness.length;
    process.kill(pid, 'SIGTERM');
    await until('DynamoDB Local to exit', async () => (stack.processes.dynamodb.pid() === undefined ? true : undefined));
    const ready = await until('GET /ready to answer 503', async () => {
      const answer = await http('GET', '/ready');
      return answer.status === 503 ? answer : undefined;
    });
    const list = await http('GET', '/v1/products');
    const post = await create();
    const page = await http('GET', scanned.qrCodeUrl, { headers: { accept: 'text/html', 'accept-language': 'fr-FR,fr;q=0.9', 'user-agent': PHONE } });
    const json = await http('GET', scanned.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': PHONE } });
    const health = await http('GET', '/health');
    const backup = await http('GET', backupUrl, { headers: { authorization: '' } });
    const backupPage = await fetch(frenchPage);

    // Assess: the outage
    for (const answer of [list, post, json, ready]) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(answer.body.error.type).toBe('service_unavailable');
    }
    // What one failing call may take at most (lib/data/aws-budget.ts), with this stack's attempt cut-off.
    const budget = callBudgetMs(config().awsAttemptTimeoutMs);
    expect([list.ms, post.ms, page.ms, json.ms].every((ms) => ms < budget), `${list.ms} ${post.ms} ${page.ms} ${json.ms} ms, budget ${budget} ms`).toBe(true);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(page.headers.get('content-language')).toBe('fr');
    expect(page.text).toContain('Cette page est temporairement indisponible');
    expect(ready.body.error.message).toContain('the table (DynamoDB)');
    expect(ready.body.error.message).not.toContain('scan queue');
    expect(health.status).toBe(200);
    // The backup URL answers from the backup store, which the outage does not touch.
    expect(backup.status, backup.text).toBe(200);
    expect(backup.body).toMatchObject({ productId: scanned.productId, version: 1, backupUrl });
    // And the page in a reader's language, as the primary rendered it (fauxqs keeps no Content-Language: docs/backup.md#locally).
    expect(backupPage.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await backupPage.text()).toBe(primaryPage);
    expect(JSON.stringify([list.body, post.body, json.body])).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|dynamo/i);
    await until('the stack to print that it is not ready', async () => readiness.slice(printed).find((c) => !c.ready && c.failed.some((f) => f.name === 'table')));

    // Act: start it again on its port, without restarting the stack
    await stack.processes.dynamodb.start();
    await readyIs(200);
    const retried = await until('the Idempotency-Key retry to create the product', async () => {
      const answer = await create();
      return answer.status === 201 ? answer : undefined;
    });
    const replayed = await create();
    const sameGtin = await http('GET', `/v1/products?q=${gtin}`);
    const acknowledged = await http('GET', `/v1/products/${before.productId}`);
    const scan = await http('GET', scanned.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': PHONE } });

    // Assess: recovered, exactly once, nothing lost
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.productId).toBe(retried.body.productId);
    expect(sameGtin.body.data.map((p: { productId: string }) => p.productId)).toEqual([retried.body.productId]);
    expect(acknowledged.status).toBe(200);
    expect(scan.status).toBe(307);
    await until('the stack to print that it is ready again', async () => readiness.slice(printed).find((c) => c.ready));
  }, 300_000);
});

describe('the SQS endpoint killed, then started again', () => {
  it('answers every scan during the outage and counts each exactly once after it', async () => {
    // Prepare
    const product = await publishedProduct('Scanned while the queue is down');
    const scan = () => http('GET', product.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': PHONE } });
    const total = async () => (await http('GET', `/v1/analytics/product/${product.productId}`)).body.totalScans as number;
    const during = 20;

    // Act: kill the SQS endpoint by its PID, scan, start it again, scan once more
    const pid = stack.processes.sqs.pid();
    if (pid === undefined) throw new Error('the SQS endpoint is not running');
    const printed = readiness.length;
    process.kill(pid, 'SIGKILL');
    const ready = await until('GET /ready to answer 503', async () => {
      const answer = await http('GET', '/ready');
      return answer.status === 503 ? answer : undefined;
    });
    const statuses: number[] = [];
    for (let i = 0; i < during; i++) statuses.push((await scan()).status);
    const printedDown = await until('the stack to print that it is not ready', async () => readiness.slice(printed).find((c) => !c.ready));
    await stack.processes.sqs.start();
    await readyIs(200);
    statuses.push((await scan()).status);
    await until('every scan to be counted', async () => ((await total()) === during + 1 ? true : undefined));
    await until('the scan queue to drain', async () => {
      const { scan: depth } = (await http('GET', '/_local/queues')).body as { scan: { ready: number; inflight: number; delayed: number } };
      return depth.ready + depth.inflight + depth.delayed === 0 ? true : undefined;
    });

    // Assess
    expect(statuses).toEqual(Array.from({ length: during + 1 }, () => 307));
    expect(ready.body.error.message).toContain('the scan queue (SQS)');
    expect(ready.body.error.message).not.toContain('the table');
    expect(await total()).toBe(during + 1);
    expect(printedDown.failed.map((f) => f.name)).toContain('scanQueue');
  }, 300_000);
});

describe('the table deleted, then restored from the backup copy', () => {
  it('rebuilds in the deleted table three passport versions of a wine and of a battery model and three versions of one battery: backup verify finds nothing missing, passports verify holds', async () => {
    // Prepare: three passport versions of a wine and of a battery model, three versions of one battery
    const asOperator = { port: stack.info.port, dataDir };
    const tenant = { orgId, environment: 'live' as const };
    const wine = await publishedProduct('Restored Riesling');
    const batteryGtin = uniqueGtin13();
    const battery = await http('POST', '/v1/products', { body: { name: 'Restored traction battery', category: 'battery', gtin: batteryGtin } });
    const batteryId = battery.body.productId as string;
    const serial = 'EVP75R0001';
    for (const version of [2, 3]) {
      const published = await http('POST', '/v1/passports', { body: { productId: wine.productId, data: { ...RED_WINE, vintage: 2020 + version } } });
      expect(published.status, published.text).toBe(201);
    }
    for (const reading of [1, 2, 3]) {
      const published = await http('POST', '/v1/passports?asOf=2027-03-01', { body: { productId: batteryId, data: batteryModelData('ev', { massKg: 430 + reading }) } });
      const item = await http('PUT', `/v1/products/${batteryId}/items/${serial}?force=true`, { body: { data: batteryReading(batteryGtin, serial, reading) } });
      expect(published.status, published.text).toBe(201);
      expect([200, 201], item.text).toContain(item.status);
    }
    // The backup lag at zero: every version of the organization (the earlier tests' too) in the copy with the table's digest.
    // Compared in this process, as `backup verify` compares them, to wait without starting the CLI each time.
    const { versions } = await until('the backup copy to hold every version', async () => {
      const compared = await verifyTenant(tenant, stack.info.tableName);
      return compared.findings.length === 0 ? compared : undefined;
    });

    // Act: delete the table, then restore the organization into it
    await localClient(stack.info.dynamodbEndpoint, stack.info.region).send(new DeleteTableCommand({ TableName: stack.info.tableName }));
    const restored = await admin(['backup', 'restore', '--org', orgId, '--json'], asOperator);
    // The operator's `passports verify` for the wine; the comparison and the battery's chain with the
    // functions the CLI's `backup verify` and `passports verify` call, in this process: each CLI
    // process costs seconds (test/integration/backup.test.ts runs all three commands).
    const [wineChain, compared, batteryChain] = await Promise.all([
      admin(['passports', 'verify', '--org', orgId, '--product', wine.productId, '--json'], asOperator),
      verifyTenant(tenant, stack.info.tableName),
      verifyPassportChain(tenant, batteryId),
    ]);

    // Assess
    expect(versions).toBeGreaterThanOrEqual(9);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ table: stack.info.tableName, unreadable: [] });
    expect(compared).toEqual({ versions, findings: [] });
    expect(wineChain.code, wineChain.stdout).toBe(0);
    expect(JSON.parse(wineChain.stdout)).toMatchObject({ productId: wine.productId, intact: true, versions: [{ version: 1 }, { version: 2 }, { version: 3 }] });
    expect(batteryChain?.broken).toBeUndefined();
    expect(batteryChain?.versions.map((v) => v.version)).toEqual([1, 2, 3]);
  }, 300_000);
});
