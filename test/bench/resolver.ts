import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createOrganization } from '../../lib/services/organizations.ts';
import { dynamoCallCounts } from '../../lib/data/call-counts.ts';
import { scanSendCount } from '../../lib/data/scan-queue.ts';
import { localClient } from '../../infra/local/dynamodb.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { throughput, type Row } from './measure.ts';

/**
 * A consumer's scan: GET {qrCodeUrl} as JSON through the local gateway, against a baseline of one
 * raw GetItem plus one SendMessage (the least a counted scan can cost) in the same run.
 */
export async function benchResolver(stack: StackInfo, count: number, concurrency: number): Promise<Row[]> {
  const { keys } = await createOrganization('Bench resolver');
  const key = keys.live.key;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const product = (await fetch(`${stack.url}/v1/products`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench wine', category: 'wine', gtin: '4006381333931' }),
  }).then((r) => r.json())) as { productId: string; qrCodeUrl: string };
  await fetch(`${stack.url}/v1/passports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ productId: product.productId, data: { productType: 'wine', ingredients: ['Grapes', 'Sulphites'], nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 } } }),
  });
  const scan = async () => {
    // The scan is the resolver's 307 (docs/resolver.md); following it to the immutable page is not part of the scan.
    const response = await fetch(product.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': 'Mozilla/5.0 (iPhone)' }, redirect: 'manual' });
    if (response.status !== 307) throw new Error(`scan answered ${response.status}`);
    await response.arrayBuffer();
  };

  const [orgId, environment] = new URL(product.qrCodeUrl).pathname.split('/').filter(Boolean);
  const dynamo = localClient(stack.dynamodbEndpoint, stack.region);
  const sqs = new SQSClient({
    region: stack.region,
    endpoint: stack.sqsEndpoint,
    useQueueUrlAsEndpoint: false,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // The baseline's messages go to a queue of their own, so the aggregator never sees them.
  const { QueueUrl: baselineQueue } = await sqs.send(new CreateQueueCommand({ QueueName: 'bench-baseline' }));
  const baselineScan = async () => {
    await dynamo.send(
      new GetItemCommand({ TableName: stack.tableName, Key: { PK: { S: `T#${orgId}#${environment}` }, SK: { S: 'GTIN#04006381333931' } } }),
    );
    await sqs.send(new SendMessageCommand({ QueueUrl: baselineQueue, MessageBody: '{"v":1}' }));
  };

  const warm = Math.min(200, count);
  await throughput(baselineScan, warm, concurrency);
  await throughput(scan, warm, concurrency);
  const baseline = await throughput(baselineScan, count, concurrency);
  // GetItems only: the aggregator runs in this process too, and its Query, UpdateItem and PutItem
  // calls are counted by the same counter (the resolver may make nothing but GetItem: infra/functions.ts).
  const getItems = () => dynamoCallCounts().GetItemCommand ?? 0;
  const reads = getItems();
  const sends = scanSendCount();
  const resolver = await throughput(scan, count, concurrency);
  const readsPerScan = (getItems() - reads) / count;
  const sendsPerScan = (scanSendCount() - sends) / count;
  dynamo.destroy();
  sqs.destroy();

  return [
    { benchmark: 'resolver.scan', figure: 'baseline GetItem + SendMessage', value: baseline, unit: 'req/s' },
    { benchmark: 'resolver.scan', figure: 'GET {qrCodeUrl} (JSON)', value: resolver, unit: 'req/s' },
    { benchmark: 'resolver.scan', figure: 'ratio to baseline', value: resolver / baseline, unit: 'x', note: '1.00 = as fast as the two raw calls' },
    { benchmark: 'resolver.scan', figure: 'DynamoDB reads per scan', value: readsPerScan, unit: 'calls', note: 'aim 1 (GetItem; the resolver is granted nothing else)' },
    { benchmark: 'resolver.scan', figure: 'SQS sends per scan', value: sendsPerScan, unit: 'calls', note: 'aim 1' },
  ];
}

/** Lambda's CPU share grows with memory: one full vCPU at 1,769 MB (docs/benchmarks.md#right-sized-functions). */
export const FULL_VCPU_MB = 1769;
/** The memory sizes the function bench models (arm64). */
export const MEMORY_SIZES_MB = [256, 512, 1024] as const;
/**
 * What the local bench cannot measure: the in-region round trips of a scan (one GetItem, then one
 * SendMessage), waited for without CPU. An assumption (docs/benchmarks.md#right-sized-functions),
 * the same at every memory size.
 */
export const SCAN_IO_WAIT_MS = 10;

export interface ResolverFunctionFigures {
  /** CPU of a fresh Node process that imports the bundle (bootstrap included), and of one importing an empty module. */
  coldCpuMs: number;
  emptyCpuMs: number;
  /**
   * The same two with node:http loaded first, as Lambda's Node.js runtime loads it before it imports
   * the handler (its Runtime API client, docs/benchmarks.md#right-sized-functions): closer to what a
   * cold start in Lambda adds, but not the goal's figure.
   */
  coldCpuMsAfterHttp: number;
  emptyCpuMsAfterHttp: number;
  /** Wall time of the same two processes (median). */
  coldWallMs: number;
  emptyWallMs: number;
  /** CPU per warm scan (handler, signing and serialization, HTTP to a local stub answering at once). */
  warmCpuMs: number;
  /** Bytes the function writes to stdout/stderr per warm scan at its Lambda log level (what CloudWatch Logs would ingest). */
  logBytesPerScan: number;
  /** Bytes of the scan's 307 (status line and headers) and of the e-label page it names (headers and Brotli body). */
  redirectBytes: number;
  pageBytes: number;
  runs: number;
  scans: number;
}

/**
 * The resolver's CPU-bound part, measured on its deployed bundle: cold import and warm scans
 * against a local stub of DynamoDB and SQS that answers at once, so that only the function's own
 * work is timed. The figures are CPU times (process.cpuUsage), which the load of other processes on
 * the machine disturbs far less than wall time.
 */
export async function measureResolverFunction(options: { runs?: number; scans?: number } = {}): Promise<ResolverFunctionFigures> {
  const runs = options.runs ?? 15;
  const scans = options.scans ?? 2000;
  const { mkdtempSync, rmSync, writeFileSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { createHash } = await import('node:crypto');
  const { createServer } = await import('node:http');
  const { spawn } = await import('node:child_process');
  const { marshall } = await import('@aws-sdk/util-dynamodb');
  const { bundleFunction } = await import('./bundles.ts');
  const { BUNDLE_FILE, nodeOptionsOf } = await import('../../infra/cdk/bundling.ts');
  const { FUNCTIONS } = await import('../../infra/functions.ts');

  const org = 'org_0123456789abcdef';
  const gtin = '04006381333931';
  const item = marshall({
    PK: `T#${org}#live`,
    SK: `GTIN#${gtin}`,
    productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
    name: 'Riesling 2023',
    category: 'wine',
    gtin,
    qrCodeUrl: `https://id.example.com/${org}/live/01/${gtin}`,
    // The passport of the local bench (test/bench/resolver.ts#benchResolver): a small wine e-label.
    passport: { passportId: 'ps_1', productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f', version: 3, data: { productType: 'wine', ingredients: ['Grapes', 'Sulphites'] }, createdAt: '2026-11-01T00:00:00.000Z' },
  });
  // DynamoDB and SQS speak JSON 1.0: one POST per call, the operation in X-Amz-Target.
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { MessageBody?: string };
      const answer = target.endsWith('.GetItem')
        ? { Item: item }
        : target.endsWith('.SendMessage')
          ? { MessageId: 'bench-message', MD5OfMessageBody: createHash('md5').update(body.MessageBody ?? '').digest('hex') }
          : {};
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const endpoint = `http://127.0.0.1:${port}`;

  const dir = mkdtempSync(join(tmpdir(), 'passport-resolver-bench-'));
  try {
    await bundleFunction(FUNCTIONS.resolver.entry, dir);
    const bundle = pathToFileURL(join(dir, BUNDLE_FILE)).href;
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, '');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      // The resolver's own (no source maps at run time: infra/functions.ts), for the empty module too.
      NODE_OPTIONS: nodeOptionsOf(FUNCTIONS.resolver) ?? '',
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      // What Lambda sets from the function's application log level (advanced logging controls).
      AWS_LAMBDA_LOG_LEVEL: FUNCTIONS.resolver.logLevel ?? 'WARN',
      AWS_LAMBDA_LOG_FORMAT: 'JSON',
      TABLE_NAME: 'bench',
      SCAN_QUEUE_URL: `${endpoint}/000000000000/scan-events`,
      DYNAMODB_ENDPOINT: endpoint,
      SQS_ENDPOINT: endpoint,
      POWERTOOLS_SERVICE_NAME: 'product-passport',
    };
    /** One child process: its stdout+stderr bytes (logs) and the JSON it writes to `out`. */
    const child = (script: string, out: string, extra: NodeJS.ProcessEnv = {}): Promise<{ logBytes: number; result: Record<string, number> }> =>
      new Promise((resolve, reject) => {
        const started = process.hrtime.bigint();
        const proc = spawn(process.execPath, ['--input-type=module', '--eval', script], { env: { ...env, ...extra, BENCH_OUT: out } });
        let logBytes = 0;
        let stderr = '';
        proc.stdout.on('data', (c: Buffer) => (logBytes += c.length));
        proc.stderr.on('data', (c: Buffer) => {
          logBytes += c.length;
          stderr += c.toString('utf8');
        });
        proc.on('close', (code) => {
          const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
          if (code !== 0) return reject(new Error(`bench child failed (${code}):\n${stderr}`));
          resolve({ logBytes, result: { ...(JSON.parse(readFileSync(out, 'utf8')) as Record<string, number>), wallMs } });
        });
      });
    const cpu = 'const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };';
    const importScript = (file: string) =>
      `${cpu} await import(${JSON.stringify(file)}); const ms = cpu(); (await import('node:fs')).writeFileSync(process.env.BENCH_OUT, JSON.stringify({ cpuMs: ms }));`;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
    // The empty module and the bundle take turns, so that a slow moment of the shared machine falls on both.
    const afterHttp = { NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require=node:http`.trim() };
    const importOnce = async (file: string, extra: NodeJS.ProcessEnv = {}) => (await child(importScript(file), join(dir, 'out.json'), extra)).result;
    await importOnce(pathToFileURL(empty).href); // warm the file system cache and the node binary
    await importOnce(bundle);
    const imports: Record<'empty' | 'bundle' | 'emptyAfterHttp' | 'bundleAfterHttp', Record<string, number>[]> = { empty: [], bundle: [], emptyAfterHttp: [], bundleAfterHttp: [] };
    for (let i = 0; i < runs; i++) {
      imports.empty.push(await importOnce(pathToFileURL(empty).href));
      imports.bundle.push(await importOnce(bundle));
      imports.emptyAfterHttp.push(await importOnce(pathToFileURL(empty).href, afterHttp));
      imports.bundleAfterHttp.push(await importOnce(bundle, afterHttp));
    }
    const cold = (results: Record<string, number>[]) => ({
      cpuMs: median(results.map((r) => r.cpuMs ?? Number.NaN)),
      wallMs: median(results.map((r) => r.wallMs ?? Number.NaN)),
    });
    const emptyCold = cold(imports.empty);
    const bundleCold = cold(imports.bundle);

    // A scan as CloudFront hands it to the function URL: a phone's browser, the viewer-request function's headers.
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: `/${org}/live/01/${gtin}`,
      rawQueryString: '',
      headers: {
        host: 'abc.lambda-url.eu-central-1.on.aws',
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'accept-language': 'de-DE,de;q=0.9,en;q=0.8',
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        referer: 'https://www.instagram.com/',
        'cloudfront-viewer-country': 'DE',
        'x-forwarded-host': 'id.example.com',
        'x-resolver-origin': 'https://id.example.com',
      },
      requestContext: { http: { method: 'GET', path: `/${org}/live/01/${gtin}`, protocol: 'HTTP/1.1', sourceIp: '130.176.0.1', userAgent: 'Amazon CloudFront' }, requestId: 'r', routeKey: '$default', stage: '$default', domainName: 'abc.lambda-url.eu-central-1.on.aws', accountId: 'anonymous', apiId: 'abc', domainPrefix: 'abc', time: '', timeEpoch: 0 },
      isBase64Encoded: false,
    };
    const warmScript = `${cpu}
      const { handler } = await import(${JSON.stringify(bundle)});
      const event = ${JSON.stringify(event)};
      const context = { awsRequestId: 'bench', functionName: 'resolver', getRemainingTimeInMillis: () => 5000 };
      const scan = async () => { const r = await handler(structuredClone(event), context); if (r.statusCode !== 307) throw new Error('scan answered ' + r.statusCode); };
      for (let i = 0; i < 300; i++) await scan();
      const before = cpu();
      for (let i = 0; i < ${scans}; i++) await scan();
      const warmCpuMs = (cpu() - before) / ${scans};
      // What CloudFront sends the viewer: the 307's headers, then the page it names (cached at the edge, Brotli).
      const headerBytes = (h) => Object.entries(h ?? {}).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);
      const redirect = await handler(structuredClone(event), context);
      const pagePath = new URL(redirect.headers.Location).pathname;
      const page = await handler({ ...structuredClone(event), rawPath: pagePath, requestContext: { ...event.requestContext, http: { ...event.requestContext.http, path: pagePath } } }, context);
      const { brotliCompressSync } = await import('node:zlib');
      const redirectBytes = 20 + headerBytes(redirect.headers) + Buffer.byteLength(redirect.body ?? '');
      const pageBytes = page.statusCode === 200 ? 20 + headerBytes(page.headers) + brotliCompressSync(Buffer.from(page.body ?? '')).length : NaN;
      (await import('node:fs')).writeFileSync(process.env.BENCH_OUT, JSON.stringify({ warmCpuMs, redirectBytes, pageBytes }));`;
    const warm = await child(warmScript, join(dir, 'warm.json'));
    return {
      coldCpuMs: bundleCold.cpuMs,
      emptyCpuMs: emptyCold.cpuMs,
      coldCpuMsAfterHttp: cold(imports.bundleAfterHttp).cpuMs,
      emptyCpuMsAfterHttp: cold(imports.emptyAfterHttp).cpuMs,
      coldWallMs: bundleCold.wallMs,
      emptyWallMs: emptyCold.wallMs,
      warmCpuMs: warm.result.warmCpuMs ?? Number.NaN,
      logBytesPerScan: warm.logBytes / (scans + 300),
      redirectBytes: warm.result.redirectBytes ?? Number.NaN,
      pageBytes: warm.result.pageBytes ?? Number.NaN,
      runs,
      scans,
    };
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Modelled warm duration of a scan at `memoryMb`: the CPU part scaled to the memory's CPU share, plus the I/O wait. */
export const scanDurationMs = (warmCpuMs: number, memoryMb: number): number => warmCpuMs * Math.max(1, FULL_VCPU_MB / memoryMb) + SCAN_IO_WAIT_MS;

/** The resolver function figures as benchmark rows (the cost model reads them: test/bench/cost.ts). */
export async function benchResolverFunction(): Promise<Row[]> {
  const f = await measureResolverFunction();
  return [
    { benchmark: 'resolver.function', figure: 'cold import CPU / empty module', value: f.coldCpuMs / f.emptyCpuMs, unit: 'x', note: `${f.coldCpuMs.toFixed(0)} vs ${f.emptyCpuMs.toFixed(0)} ms CPU, fresh node process; goal ≤ 2` },
    {
      benchmark: 'resolver.function',
      figure: 'the same, node:http loaded first (as in Lambda)',
      value: f.coldCpuMsAfterHttp / f.emptyCpuMsAfterHttp,
      unit: 'x',
      note: `${f.coldCpuMsAfterHttp.toFixed(0)} vs ${f.emptyCpuMsAfterHttp.toFixed(0)} ms CPU; Lambda's runtime loads node:http before the handler`,
    },
    { benchmark: 'resolver.function', figure: 'cold import wall / empty module', value: f.coldWallMs / f.emptyWallMs, unit: 'x', note: `${f.coldWallMs.toFixed(0)} vs ${f.emptyWallMs.toFixed(0)} ms (load-sensitive)` },
    { benchmark: 'resolver.function', figure: 'warm CPU per scan', value: f.warmCpuMs, unit: 'ms', note: 'at 1 vCPU; DynamoDB and SQS stubbed locally' },
    { benchmark: 'resolver.function', figure: 'log bytes per scan', value: f.logBytesPerScan, unit: 'bytes', note: 'application lines at the function\'s Lambda log level' },
    { benchmark: 'resolver.function', figure: '307 answer bytes', value: f.redirectBytes, unit: 'bytes', note: 'status line and headers, no body' },
    { benchmark: 'resolver.function', figure: 'e-label page bytes (Brotli)', value: f.pageBytes, unit: 'bytes', note: 'headers and compressed body of the page the 307 names' },
    ...MEMORY_SIZES_MB.map((mb): Row => ({
      benchmark: 'resolver.function',
      figure: `modelled warm duration at ${mb} MB`,
      value: scanDurationMs(f.warmCpuMs, mb),
      unit: 'ms',
      note: `CPU × ${Math.max(1, FULL_VCPU_MB / mb).toFixed(2)} + ${SCAN_IO_WAIT_MS} ms I/O; ${((scanDurationMs(f.warmCpuMs, mb) * mb) / 1024).toFixed(1)} GB-ms`,
    })),
    ...MEMORY_SIZES_MB.map((mb): Row => ({
      benchmark: 'resolver.function',
      figure: `modelled cold start at ${mb} MB`,
      value: (f.coldCpuMs - f.emptyCpuMs) * Math.max(1, FULL_VCPU_MB / mb),
      unit: 'ms',
      note: 'the bundle\'s own import CPU, scaled to the CPU share',
    })),
  ];
}

const isMain = process.argv[1] !== undefined && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { printTable } = await import('./measure.ts');
  const rows = await benchResolverFunction();
  printTable(rows);
  // `--save`: put these rows into bench-results/latest.json (replacing the previous resolver.function rows), for `npm run cost`.
  if (process.argv.includes('--save')) {
    const { existsSync, mkdirSync, readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { REPO_ROOT } = await import('../../infra/cdk/bundling.ts');
    const file = join(REPO_ROOT, 'bench-results', 'latest.json');
    const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { rows?: Row[] }) : {};
    const kept = (previous.rows ?? []).filter((r) => r.benchmark !== 'resolver.function');
    mkdirSync(join(REPO_ROOT, 'bench-results'), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ ...previous, at: new Date().toISOString(), node: process.version, rows: [...kept, ...rows] }, null, 2)}\n`);
    console.log('\nSaved to bench-results/latest.json');
  }
}
