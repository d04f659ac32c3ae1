/**
 * `npm run soak -- --minutes N`: a soak test with faults (docs/testing.md#the-soak-test). Starts
 * `npm start` on a free port with its data in a throwaway directory, sends a fixed mix of scans,
 * API reads, writes and imports at a set rate for N minutes (default 3), and on a schedule kills
 * the stack's DynamoDB Local and then its SQS endpoint, each by its PID (from the stack's
 * `GET /_local/processes`), holding each down for some seconds before starting it again
 * (`POST /_local/processes/{name}/start`). Afterwards it checks what a user would notice and prints
 * a report per phase; it exits 1 when a check fails.
 *
 * Flags: `--minutes N` (default 3), `--rate R` requests a second (default 10), `--hold S` seconds
 * each fault lasts (default 10), `--out FILE` to write the report there too, `--stack-log FILE` to
 * keep what the stack printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../infra/local/ports.ts';
import { REPO_ROOT, runFile, type StackInfo } from '../../infra/local/stack.ts';
import { checkDigit } from '../../lib/domain/gtin.ts';
import { until } from '../support/until.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    rate: { type: 'string', default: '10' },
    hold: { type: 'string', default: '10' },
    out: { type: 'string' },
    'stack-log': { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const holdMs = Number(values.hold) * 1000;
if (!(minutes > 0) || !(rate > 0) || !(holdMs > 0)) throw new Error('--minutes, --rate and --hold must be positive numbers');
const durationMs = minutes * 60_000;

/** The mix, per request: what share of the rate each kind of request takes. */
const MIX = [
  { kind: 'scan', share: 0.6 },
  { kind: 'read', share: 0.25 },
  { kind: 'write', share: 0.1 },
  { kind: 'import', share: 0.05 },
] as const;
type Kind = (typeof MIX)[number]['kind'];
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** At most this many requests in flight: an outage must not pile up requests without bound. */
const MAX_IN_FLIGHT = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const runId = Date.now().toString().slice(-7);
let gtins = 0;
/** A GTIN-13 no other soak run uses (its run id and a counter, with its check digit). */
const newGtin = (): string => {
  const body = `2${runId}${String(++gtins).padStart(4, '0')}`;
  return `${body}${checkDigit(body)}`;
};

// ---- The stack -------------------------------------------------------------------------------

const dataDir = mkdtempSync(join(tmpdir(), 'passport-soak-'));
const port = await freePort();
const url = `http://localhost:${port}`;
const started = Date.now();
/** What the stack printed about its readiness, with when (ms since the epoch). */
const readinessLines: { at: number; text: string }[] = [];
const stackLog: string[] = [];
const stack: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), join(REPO_ROOT, 'infra/local/start.ts'), '--port', String(port)], {
  cwd: REPO_ROOT,
  env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const onOutput = (chunk: Buffer) => {
  for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
    stackLog.push(`+${((Date.now() - started) / 1000).toFixed(1)} ${line}`);
    if (line.startsWith('[ready]')) readinessLines.push({ at: Date.now(), text: line.replace(/^\[ready\] \S+ /, '') });
  }
};
stack.stdout?.on('data', onOutput);
stack.stderr?.on('data', onOutput);

async function stopStack(): Promise<void> {
  if (stack.exitCode !== null || stack.signalCode !== null) return;
  const exited = new Promise((resolve) => stack.once('exit', resolve));
  stack.kill('SIGINT');
  await Promise.race([exited, sleep(30_000)]);
  if (stack.exitCode === null && stack.signalCode === null) stack.kill('SIGKILL');
}

interface Answer {
  status: number;
  body: any;
  ms: number;
}
async function http(method: string, path: string, options: { key?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const t = performance.now();
  try {
    const response = await fetch(path.startsWith('http') ? path : `${url}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...options.headers },
      ...(options.body === undefined ? {} : { body: options.body }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    const body = (response.headers.get('content-type') ?? '').includes('json') && text ? (JSON.parse(text) as unknown) : text;
    return { status: response.status, body, ms: performance.now() - t };
  } catch {
    // No answer at all (the gateway itself is down, or a minute passed): status 0.
    return { status: 0, body: undefined, ms: performance.now() - t };
  }
}

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) / 1024;
}

// ---- The run ---------------------------------------------------------------------------------

interface Sample {
  phase: string;
  kind: Kind;
  status: number;
  ms: number;
}
const samples: Sample[] = [];
let phase = 'steady';
const phases: { name: string; from: number; to?: number }[] = [{ name: phase, from: 0 }];
const enter = (name: string) => {
  const now = Date.now() - loadStarted;
  const current = phases.at(-1);
  if (current) current.to = now;
  phases.push({ name, from: now });
  phase = name;
  stackLog.push(`+${((Date.now() - started) / 1000).toFixed(1)} ---- the soak enters: ${name}`);
};
let loadStarted = Date.now();

let failed = false;
const report: string[] = [];
try {
  await until('npm start to answer /health', async () => ((await http('GET', '/health')).status === 200 ? true : undefined), 300_000);
  // npm start writes the demo organization's keys once the stack answers.
  const credentials = await until('the demo organization\'s keys', async () => JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as { keys: { live: string } }, 60_000);
  const info = JSON.parse(readFileSync(runFile(dataDir, port), 'utf8')) as StackInfo;
  const key = credentials.keys.live;
  const json = { 'content-type': 'application/json' };

  // Five published products to scan, the first of them hot (half the scans).
  const products: { productId: string; qrCodeUrl: string }[] = [];
  for (let i = 0; i < 5; i++) {
    const created = await http('POST', '/v1/products', { key, headers: json, body: JSON.stringify({ name: `Soak wine ${i}`, category: 'wine', gtin: newGtin() }) });
    if (created.status !== 201) throw new Error(`soak set-up: create answered ${created.status}`);
    const published = await http('POST', '/v1/passports', {
      key,
      headers: json,
      body: JSON.stringify({
        productId: created.body.productId,
        data: {
          productType: 'wine',
          colour: 'red',
          vintage: 2022,
          ingredients: ['Grapes', 'Preservative: sulphites'],
          nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 },
          allergens: { containsSulphites: true, containsEgg: false, containsFish: false, containsMilk: false },
        },
      }),
    });
    if (published.status !== 201) throw new Error(`soak set-up: publish answered ${published.status} ${JSON.stringify(published.body)}`);
    products.push({ productId: created.body.productId, qrCodeUrl: created.body.qrCodeUrl });
  }
  const memoryAtStart = rssMb(info.pid);

  // What the checks need: scans answered per product, writes acknowledged, writes refused with 503, imports queued.
  const scansAnswered = new Map(products.map((p) => [p.productId, 0]));
  const acknowledged: string[] = [];
  const refusedWrites: { idempotencyKey: string; body: string; gtin: string }[] = [];
  const queuedImports: string[] = [];

  const requests: Record<Kind, () => Promise<Answer>> = {
    scan: async () => {
      const product = Math.random() < 0.5 ? products[0]! : products[1 + Math.floor(Math.random() * 4)]!;
      const answer = await http('GET', product.qrCodeUrl, { headers: { accept: 'application/json', 'user-agent': PHONE } });
      if (answer.status === 307) scansAnswered.set(product.productId, (scansAnswered.get(product.productId) ?? 0) + 1);
      return answer;
    },
    read: () => {
      const id = acknowledged[Math.floor(Math.random() * acknowledged.length)];
      return id && Math.random() < 0.5 ? http('GET', `/v1/products/${id}`, { key }) : http('GET', '/v1/products?limit=10', { key });
    },
    write: async () => {
      const gtin = newGtin();
      const body = JSON.stringify({ name: `Soak write ${gtin}`, category: 'wine', gtin });
      const idempotencyKey = crypto.randomUUID();
      const answer = await http('POST', '/v1/products', { key, body, headers: { ...json, 'idempotency-key': idempotencyKey } });
      if (answer.status === 201) acknowledged.push(answer.body.productId as string);
      else if (answer.status === 503) refusedWrites.push({ idempotencyKey, body, gtin });
      return answer;
    },
    import: async () => {
      const csv = `gtin,name,category\n${[newGtin(), newGtin()].map((gtin) => `${gtin},Soak import ${gtin},wine`).join('\n')}\n`;
      const answer = await http('POST', '/v1/imports', { key, body: csv, headers: { 'content-type': 'text/csv', 'idempotency-key': crypto.randomUUID() } });
      if (answer.status === 202) queuedImports.push(answer.body.id as string);
      return answer;
    },
  };

  // The load: one request every 1/rate seconds, of the kinds in the mix's proportions, never more than MAX_IN_FLIGHT at once.
  let inFlight = 0;
  let running = true;
  const pick = (): Kind => {
    let r = Math.random();
    for (const { kind, share } of MIX) if ((r -= share) < 0) return kind;
    return 'scan';
  };
  loadStarted = Date.now();
  const load = (async () => {
    for (let n = 0; running; n++) {
      const due = loadStarted + (n * 1000) / rate;
      if (due > Date.now()) await sleep(due - Date.now());
      if (inFlight >= MAX_IN_FLIGHT) continue;
      const kind = pick();
      const at = phase;
      inFlight++;
      void requests[kind]()
        .then((answer) => samples.push({ phase: at, kind, status: answer.status, ms: answer.ms }))
        .finally(() => inFlight--);
    }
  })();

  // The faults, on a schedule: DynamoDB Local at a fifth of the run, the SQS endpoint at a little past half
  // and at least a sixth of the run after the stack was ready again; the run goes on for at least a
  // sixth of it after the last recovery (DynamoDB Local may take a while to start on a busy machine).
  const processes = async () => (await http('GET', '/_local/processes')).body as Record<'dynamodb' | 'sqs', { pid: number | null; running: boolean }>;
  const fault = async (name: 'dynamodb' | 'sqs', signal: NodeJS.Signals) => {
    const { pid } = (await processes())[name];
    if (!pid) throw new Error(`soak: ${name} is not running`);
    enter(`${name} down`);
    process.kill(pid, signal);
    await until(`${name} to exit`, async () => ((await processes())[name].running ? undefined : true), 60_000);
    await sleep(holdMs);
    enter(`${name} restarting`);
    const restarted = await http('POST', `/_local/processes/${name}/start`);
    if (restarted.status !== 200) throw new Error(`soak: starting ${name} again answered ${restarted.status}`);
    await until('GET /ready to answer 200', async () => ((await http('GET', '/ready')).status === 200 ? true : undefined), 180_000);
    enter(`after ${name}`);
  };
  const settle = durationMs / 6;
  await sleep(Math.max(0, loadStarted + durationMs * 0.2 - Date.now()));
  // SIGTERM, not SIGKILL: DynamoDB Local loses the write it acknowledged last when killed with SIGKILL (docs/testing.md#faults).
  await fault('dynamodb', 'SIGTERM');
  await sleep(Math.max(settle, loadStarted + durationMs * 0.55 - Date.now()));
  await fault('sqs', 'SIGKILL');
  await sleep(Math.max(settle, loadStarted + durationMs - Date.now()));
  running = false;
  await load;
  await until('the requests in flight to end', async () => (inFlight === 0 ? true : undefined), 120_000);
  const last = phases.at(-1);
  if (last) last.to = Date.now() - loadStarted;

  // ---- The checks ----------------------------------------------------------------------------
  const checks: { ok: boolean; text: string }[] = [];
  const check = (ok: boolean, text: string) => {
    checks.push({ ok, text });
    if (!ok) failed = true;
  };

  const other5xx = samples.filter((s) => (s.status >= 500 && s.status !== 503) || s.status === 0);
  check(other5xx.length === 0, `5xx other than 503 (and no answer at all): ${other5xx.length}${other5xx.length ? ` (${[...new Set(other5xx.map((s) => `${s.kind} ${s.status}`))].join(', ')})` : ''}`);

  let readable = 0;
  for (const id of acknowledged) if ((await http('GET', `/v1/products/${id}`, { key })).status === 200) readable++;
  check(readable === acknowledged.length, `acknowledged writes (201) readable afterwards: ${readable} of ${acknowledged.length}`);

  // A write that got 503, sent again with its Idempotency-Key now, is created once.
  let once = 0;
  for (const write of refusedWrites) {
    const answer = await until(
      `the retry of a refused write`,
      async () => {
        const retried = await http('POST', '/v1/products', { key, body: write.body, headers: { ...json, 'idempotency-key': write.idempotencyKey } });
        return retried.status === 201 ? retried : undefined;
      },
      180_000,
    ).catch(() => ({ status: 0 }));
    const found = await http('GET', `/v1/products?q=${write.gtin}`, { key });
    if (answer.status === 201 && (found.body.data as unknown[]).length === 1) once++;
  }
  check(once === refusedWrites.length, `writes that got 503, retried with their Idempotency-Key: ${once} of ${refusedWrites.length} created exactly once`);

  let succeeded = 0;
  for (const id of queuedImports) {
    const status = await until(
      `import ${id} to finish`,
      async () => {
        const job = await http('GET', `/v1/imports/${id}`, { key });
        return job.body?.status === 'succeeded' || job.body?.status === 'failed' ? (job.body.status as string) : undefined;
      },
      180_000,
    ).catch(() => 'unfinished');
    if (status === 'succeeded') succeeded++;
  }
  check(succeeded === queuedImports.length, `imports acknowledged (202) that succeeded: ${succeeded} of ${queuedImports.length}`);

  const answered = [...scansAnswered.values()].reduce((a, b) => a + b, 0);
  const countedOf = async () => {
    let total = 0;
    for (const p of products) total += ((await http('GET', `/v1/analytics/product/${p.productId}`, { key })).body as { totalScans: number }).totalScans;
    return total;
  };
  const counted = await until('the scans to be counted', async () => ((await countedOf()) >= answered ? countedOf() : undefined), 180_000).catch(() => countedOf());
  check(counted === answered, `scans answered (307) = counted: ${answered} answered, ${counted} counted`);

  const memoryAtEnd = rssMb(info.pid);

  // ---- The report ----------------------------------------------------------------------------
  const percentile = (xs: number[], p: number) => {
    if (!xs.length) return Number.NaN;
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
  };
  const cell = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(0));
  const load1 = loadavg()[0]?.toFixed(1) ?? '?';
  report.push(
    `Soak test: ${minutes} min at ${rate} requests/s (${MIX.map((m) => `${m.kind}s ${m.share * 100} %`).join(', ')}), faults held ${holdMs / 1000} s, Node ${process.version}, load average ${load1} at the end`,
    '',
    '| phase | from–to (s) | requests | 2xx/3xx | 4xx | 503 | other 5xx | p50 ms | p99 ms | scans p99 ms |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const p of phases) {
    const of = samples.filter((s) => s.phase === p.name);
    const count = (test: (status: number) => boolean) => of.filter((s) => test(s.status)).length;
    report.push(
      `| ${p.name} | ${(p.from / 1000).toFixed(0)}–${((p.to ?? p.from) / 1000).toFixed(0)} | ${of.length} | ${count((s) => s >= 200 && s < 400)} | ${count((s) => s >= 400 && s < 500)} | ${count((s) => s === 503)} | ${count((s) => (s >= 500 && s !== 503) || s === 0)} | ${cell(percentile(of.map((s) => s.ms), 50))} | ${cell(percentile(of.map((s) => s.ms), 99))} | ${cell(percentile(of.filter((s) => s.kind === 'scan').map((s) => s.ms), 99))} |`,
    );
  }
  report.push(
    '',
    'Readiness, as `npm start` printed it (seconds into the load):',
    ...readinessLines.filter((line) => line.at >= loadStarted).map((line) => `- ${((line.at - loadStarted) / 1000).toFixed(1)} s: ${line.text}`),
    '',
    'Checks:',
  );
  for (const c of checks) report.push(`- ${c.ok ? 'PASS' : 'FAIL'} ${c.text}`);
  report.push(`- info: the stack's memory (RSS) ${memoryAtStart.toFixed(0)} MB at the start, ${memoryAtEnd.toFixed(0)} MB at the end`);
} catch (error) {
  failed = true;
  report.push(`soak: ${error instanceof Error ? error.message : String(error)}`, '', 'The stack printed:', ...stackLog.slice(-40));
} finally {
  await stopStack();
  rmSync(dataDir, { recursive: true, force: true });
}

if (values['stack-log']) writeFileSync(values['stack-log'], `${stackLog.join('\n')}\n`);
const text = report.join('\n');
console.log(text);
if (values.out) writeFileSync(values.out, `${text}\n`);
process.exit(failed ? 1 : 0);
