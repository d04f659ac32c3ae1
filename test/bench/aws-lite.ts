/**
 * The scan path's AWS client (lib/data/aws-json.ts, our own) against `@aws-lite/client` with its
 * DynamoDB and SQS plugins, a maintained library made for the same job
 * (docs/decisions.md#the-scan-path-keeps-its-own-aws-client): a scan's two calls, GetItem of the
 * GTIN item and SendMessage of its event, made by each. Measured: the cold import CPU of each
 * bundled (esbuild, as the functions are bundled) and its first scan, in a fresh Node process,
 * against an empty module;
 * the warm CPU of a scan's calls against a loopback stub that answers at once; and behaviour under
 * the faults of the fault tests: a refused connection, a server that never answers, and 503s.
 * `npx tsx test/bench/aws-lite.ts`, not part of `npm run bench`: it needs @aws-lite/client,
 * @aws-lite/dynamodb and @aws-lite/sqs, which are not dependencies (the measurement kept our client);
 * install them without saving (`npm install --no-save …`) to take it again.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { marshall } from '@aws-sdk/util-dynamodb';
import { build } from 'esbuild';
import { esbuildOptions, REPO_ROOT } from '../../infra/cdk/bundling.ts';
import { printTable, type Row } from './measure.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const SCANS = Number(process.env.BENCH_SCANS ?? 2000);
const ITEM = marshall({ PK: 'T#org_1#live', SK: 'GTIN#04006381333931', productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f', name: 'Riesling 2023', category: 'wine', gtin: '04006381333931' });

/**
 * A loopback DynamoDB and SQS answering at once, or with `status` for every call: JSON 1.0, which
 * our client speaks to both, and SQS's Query protocol (a form, answered in XML), which aws-lite's
 * SQS plugin speaks.
 */
async function stub(status = 200): Promise<{ endpoint: string; calls: () => number; server: HttpServer }> {
  let calls = 0;
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.startsWith('Action=')) {
        const form = new URLSearchParams(text);
        if (status !== 200) {
          res.writeHead(status, { 'content-type': 'text/xml' }).end('<ErrorResponse><Error><Type>Receiver</Type><Code>ServiceUnavailable</Code><Message>down</Message></Error></ErrorResponse>');
          return;
        }
        const md5 = createHash('md5').update(form.get('MessageBody') ?? '').digest('hex');
        res.writeHead(200, { 'content-type': 'text/xml' }).end(`<SendMessageResponse><SendMessageResult><MD5OfMessageBody>${md5}</MD5OfMessageBody><MessageId>m</MessageId></SendMessageResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></SendMessageResponse>`);
        return;
      }
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(text || '{}') as { MessageBody?: string };
      if (status !== 200) {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ __type: 'com.amazonaws#ServiceUnavailable', message: 'down' }));
        return;
      }
      const answer = target.endsWith('.GetItem') ? { Item: ITEM } : { MessageId: 'm', MD5OfMessageBody: createHash('md5').update(body.MessageBody ?? '').digest('hex') };
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, server };
}

/** The two entry modules: each exports `scan()`, a GetItem and a SendMessage. */
const OURS = `
import { createHash } from 'node:crypto';
import { awsJsonClient } from ${JSON.stringify(join(REPO_ROOT, 'lib/data/aws-json.ts'))};
import { unmarshall } from '@aws-sdk/util-dynamodb';
const endpoint = process.env.DYNAMODB_ENDPOINT;
const event = { v: 1, orgId: 'org_1', environment: 'live', productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f', gtin: '04006381333931', at: '2026-11-26T10:00:00.000Z', country: 'DE', referrer: 'direct', device: 'mobile' };
let clients;
const aws = () => (clients ??= {
  dynamodb: awsJsonClient({ signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', region: 'eu-central-1', endpoint }, true),
  sqs: awsJsonClient({ signingName: 'sqs', targetPrefix: 'AmazonSQS', region: 'eu-central-1', endpoint }, true),
});
export async function scan() {
  const { Item } = await aws().dynamodb.call('GetItem', { TableName: 'bench', Key: { PK: { S: 'T#org_1#live' }, SK: { S: 'GTIN#04006381333931' } } });
  if (!unmarshall(Item).productId) throw new Error('no item');
  const body = JSON.stringify(event);
  const sent = await aws().sqs.call('SendMessage', { QueueUrl: process.env.SCAN_QUEUE_URL, MessageBody: body });
  if (sent.MD5OfMessageBody !== createHash('md5').update(body).digest('hex')) throw new Error('MD5');
}
`;
const LITE = `
import awsLite from '@aws-lite/client';
import dynamodb from '@aws-lite/dynamodb';
import sqs from '@aws-lite/sqs';
const endpoint = new URL(process.env.DYNAMODB_ENDPOINT);
const event = { v: 1, orgId: 'org_1', environment: 'live', productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f', gtin: '04006381333931', at: '2026-11-26T10:00:00.000Z', country: 'DE', referrer: 'direct', device: 'mobile' };
let client;
const aws = async () => (client ??= await awsLite({ region: 'eu-central-1', protocol: 'http', host: endpoint.hostname, port: Number(endpoint.port), plugins: [dynamodb, sqs], retries: Number(process.env.LITE_RETRIES ?? 5) }));
export async function scan() {
  const c = await aws();
  const { Item } = await c.DynamoDB.GetItem({ TableName: 'bench', Key: { PK: 'T#org_1#live', SK: 'GTIN#04006381333931' } });
  if (!Item.productId) throw new Error('no item');
  await c.SQS.SendMessage({ QueueUrl: process.env.SCAN_QUEUE_URL, MessageBody: JSON.stringify(event) });
}
`;

/** A fresh Node process running `script`; what it writes to BENCH_OUT. */
function child(script: string, env: NodeJS.ProcessEnv, out: string): Promise<Record<string, number | string>> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--input-type=module', '--eval', script], { env: { PATH: process.env.PATH, ...env, BENCH_OUT: out } });
    let stderr = '';
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(readFileSync(out, 'utf8')) as Record<string, number | string>) : reject(new Error(`child failed (${code}): ${stderr}`))));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const CPU = 'const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };';

export async function benchAwsLite(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'passport-aws-lite-'));
  const ok = await stub();
  const unavailable = await stub(503);
  // A port nothing listens on, and a server that accepts and never answers.
  const closedPort = await new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const held = new Set<Socket>();
  const silent = createServer((socket) => held.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentPort = (silent.address() as AddressInfo).port;
  try {
    const bundles: Record<'ours' | 'lite', string> = { ours: join(dir, 'ours.mjs'), lite: join(dir, 'lite.mjs') };
    for (const [name, source] of [['ours', OURS], ['lite', LITE]] as const) {
      const entry = join(dir, `${name}-entry.mjs`);
      writeFileSync(entry, source);
      // The entries sit outside the repository: their packages are found in its node_modules.
      await build({ ...esbuildOptions(entry, bundles[name]), sourcemap: false, nodePaths: [join(REPO_ROOT, 'node_modules')] });
    }
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, '');
    const env = (endpoint: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      TABLE_NAME: 'bench',
      DYNAMODB_ENDPOINT: endpoint,
      SQS_ENDPOINT: endpoint,
      SCAN_QUEUE_URL: `${endpoint}/000000000000/scan-events`,
      // The scan path's production cut-offs (a local endpoint would get the local ones: lib/config.ts).
      SCAN_ATTEMPT_TIMEOUT_MS: '1000',
      ...extra,
    });

    // Cold start: importing the bundle and the first scan (aws-lite makes its client then: credentials,
    // configuration, plugins), against importing an empty module, taking turns.
    const importScript = (file: string) =>
      file === empty
        ? `${CPU} await import(${JSON.stringify(pathToFileURL(file).href)}); (await import('node:fs')).writeFileSync(process.env.BENCH_OUT, JSON.stringify({ cpuMs: cpu() }));`
        : `${CPU} const { scan } = await import(${JSON.stringify(pathToFileURL(file).href)}); await scan(); (await import('node:fs')).writeFileSync(process.env.BENCH_OUT, JSON.stringify({ cpuMs: cpu() }));`;
    const cold: Record<'ours' | 'lite' | 'empty', number[]> = { ours: [], lite: [], empty: [] };
    for (let i = 0; i <= RUNS; i++) {
      for (const name of ['empty', 'ours', 'lite'] as const) {
        const result = await child(importScript(name === 'empty' ? empty : bundles[name]), env(ok.endpoint), join(dir, 'out.json'));
        if (i > 0) cold[name].push(Number(result.cpuMs)); // the first round warms the file cache
      }
    }

    // Warm CPU of a scan's two calls.
    const warmScript = (file: string) => `${CPU}
      const { scan } = await import(${JSON.stringify(pathToFileURL(file).href)});
      for (let i = 0; i < 300; i++) await scan();
      const before = cpu();
      for (let i = 0; i < ${SCANS}; i++) await scan();
      (await import('node:fs')).writeFileSync(process.env.BENCH_OUT, JSON.stringify({ cpuMs: (cpu() - before) / ${SCANS} }));`;
    const warm: Record<'ours' | 'lite', number[]> = { ours: [], lite: [] };
    for (let i = 0; i < 3; i++) for (const name of ['ours', 'lite'] as const) warm[name].push(Number((await child(warmScript(bundles[name]), env(ok.endpoint), join(dir, 'out.json'))).cpuMs));

    // Faults: how long a scan's first call takes to fail, how, and with how many attempts (503s).
    const faultScript = (file: string) => `
      const { scan } = await import(${JSON.stringify(pathToFileURL(file).href)});
      const started = Date.now();
      const outcome = await Promise.race([
        scan().then(() => 'answered', (e) => String(e?.name ?? e?.code ?? 'error') + (e?.statusCode ? ' ' + e.statusCode : '')),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 30 s'), 30000)),
      ]);
      (await import('node:fs')).writeFileSync(process.env.BENCH_OUT, JSON.stringify({ ms: Date.now() - started, outcome }));
      process.exit(0);`;
    const faults: Row[] = [];
    for (const [fault, endpoint] of [
      ['refused connection', `http://127.0.0.1:${closedPort}`],
      ['server that never answers', `http://127.0.0.1:${silentPort}`],
      ['503 to every call', unavailable.endpoint],
    ] as const) {
      for (const name of ['ours', 'lite'] as const) {
        const before = unavailable.calls();
        const result = await child(faultScript(bundles[name]), env(endpoint), join(dir, 'out.json'));
        const attempts = fault === '503 to every call' ? `, ${unavailable.calls() - before} attempts` : '';
        faults.push({ benchmark: 'scan.client', figure: `${name === 'ours' ? 'ours' : 'aws-lite'}: ${fault}`, value: Number(result.ms), unit: 'ms', note: `${String(result.outcome)}${attempts}` });
      }
    }

    const e = median(cold.empty);
    const ours = { cold: median(cold.ours) - e, warm: median(warm.ours) };
    const lite = { cold: median(cold.lite) - e, warm: median(warm.lite) };
    return [
      { benchmark: 'scan.client', figure: 'cold import and first scan, CPU over an empty module, ours', value: ours.cold, unit: 'ms', note: `median of ${RUNS} fresh processes; empty module ${e.toFixed(0)} ms` },
      { benchmark: 'scan.client', figure: 'cold import and first scan, CPU over an empty module, aws-lite', value: lite.cold, unit: 'ms', note: `${(lite.cold / ours.cold).toFixed(2)}× ours` },
      { benchmark: 'scan.client', figure: 'warm CPU of a scan\'s two calls, ours', value: ours.warm, unit: 'ms', note: `median of 3 runs of ${SCANS} scans` },
      { benchmark: 'scan.client', figure: 'warm CPU of a scan\'s two calls, aws-lite', value: lite.warm, unit: 'ms', note: `${(lite.warm / ours.warm).toFixed(2)}× ours` },
      ...faults,
    ];
  } finally {
    for (const socket of held) socket.destroy();
    silent.close();
    ok.server.close();
    unavailable.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) printTable(await benchAwsLite());
