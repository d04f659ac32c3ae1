import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
// The client's modules, not src/index.ts: the CLI loads no verifier (jose, standardwebhooks) it does not use.
import { PassportClient } from '../src/client.ts';
import { PassportError } from '../src/errors.ts';
import { csvFile } from '../src/resources/exports.ts';
import { rowsDone, type ImportFormat } from '../src/resources/imports.ts';
import type { CreateProductBody } from '../src/resources/products.ts';
import type { PublishPassportBody } from '../src/resources/passports.ts';
import type { EventType, Product, Registration } from '../src/types.ts';
import { configFile, DEFAULT_BASE_URL, readConfig, writeConfig } from './config.ts';
import { details, json, printable, progressBar, table } from './output.ts';

/**
 * `passport`, the brand CLI (docs/cli.md): the SDK from a terminal. Tables for people, `--json` for
 * scripts; errors on stderr with the API's type, param and Request-Id, and exit code 1.
 */
const HELP = `passport: the Product Passport CLI for brands (docs/cli.md)

  passport login [--base-url URL]            store an API key (read from stdin, or asked for)
  passport products list [--q TEXT] [--limit N | --all]
  passport products create --name NAME --category CATEGORY --gtin GTIN [--brand B] [--sku S]
  passport products get PRODUCT_ID
  passport passports publish FILE [--product PRODUCT_ID] [--as-of YYYY-MM-DD]
  passport import FILE [--dry-run] [--items --product PRODUCT_ID [--force]]
  passport export [--format csv|ndjson] [--items --product PRODUCT_ID] [--output FILE]
  passport qr PRODUCT_ID|GTIN [--size PX] [--margin MODULES] > qr.svg
  passport events tail [--type TYPE] [--interval SECONDS]
  passport registry status [--product PRODUCT_ID]
  passport registry submit (--product PRODUCT_ID ... | --all)
  passport registry files [--format json|xml] [--output DIR]

  --json       machine-readable output (JSON; JSON Lines for export and events tail)
  --base-url   the API's origin (default: the login's, else PASSPORT_BASE_URL, else ${DEFAULT_BASE_URL})
  The key comes from PASSPORT_API_KEY, else from \`passport login\` (${configFile()}).`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'base-url': { type: 'string' },
  key: { type: 'string' },
  q: { type: 'string' },
  limit: { type: 'string' },
  all: { type: 'boolean' },
  name: { type: 'string' },
  category: { type: 'string' },
  gtin: { type: 'string' },
  brand: { type: 'string' },
  sku: { type: 'string' },
  product: { type: 'string' },
  'as-of': { type: 'string' },
  'dry-run': { type: 'boolean' },
  force: { type: 'boolean' },
  items: { type: 'boolean' },
  format: { type: 'string' },
  output: { type: 'string', short: 'o' },
  size: { type: 'string' },
  margin: { type: 'string' },
  type: { type: 'string' },
  interval: { type: 'string' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

class UsageError extends Error {}

/** Everything for people goes through printable (sdk/cli/output.ts): what a server sent cannot act on the terminal. */
const out = (text: string) => process.stdout.write(`${printable(text)}\n`);
/** What a file's bytes become on stdout: as they are for a pipe or a file, printable on a terminal. */
const toStdout = (text: string) => process.stdout.write(process.stdout.isTTY ? printable(text.replace(/\r\n/g, '\n')) : text);

function required<K extends keyof Flags>(flags: Flags, name: K): NonNullable<Flags[K]> {
  const value = flags[name];
  if (value === undefined || value === '') throw new UsageError(`--${String(name)} is required`);
  return value as NonNullable<Flags[K]>;
}

function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number`);
  return Number(value);
}

async function client(flags: Flags): Promise<PassportClient> {
  const config = await readConfig();
  const apiKey = config.apiKey;
  if (!apiKey) throw new UsageError('no API key: run `passport login`, or set PASSPORT_API_KEY');
  return new PassportClient({ apiKey, baseUrl: flags['base-url'] ?? config.baseUrl ?? DEFAULT_BASE_URL });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads the key without echoing it on a terminal; a pipe's first line otherwise. */
async function readKey(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return (await readStdin()).split(/\r?\n/)[0]?.trim() ?? '';
  process.stderr.write('API key (sk_live_… or sk_test_…): ');
  stdin.setRawMode(true);
  stdin.resume();
  let key = '';
  try {
    for await (const chunk of stdin) {
      for (const char of (chunk as Buffer).toString('utf8')) {
        if (char === '\r' || char === '\n') return key.trim();
        if (char === '\u0003') throw new UsageError('cancelled');
        if (char === '\u007f') key = key.slice(0, -1);
        else key += char;
      }
    }
    return key.trim();
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}

async function login(flags: Flags) {
  const stored = await readConfig({ ...process.env, PASSPORT_API_KEY: '', PASSPORT_BASE_URL: '' });
  const baseUrl = flags['base-url'] ?? process.env.PASSPORT_BASE_URL ?? stored.baseUrl ?? DEFAULT_BASE_URL;
  const apiKey = flags.key ?? (await readKey());
  if (!/^sk_(live|test)_[0-9A-Za-z]{32}$/.test(apiKey)) throw new UsageError('that is not an API key (sk_live_… or sk_test_… and 32 letters or digits)');
  // A refused key (401) is not stored; a key without products:read (403) is a key all the same.
  let warning = '';
  try {
    await new PassportClient({ apiKey, baseUrl, maxRetries: 1 }).products.page({ limit: 1 });
  } catch (error) {
    if (!(error instanceof PassportError) || error.status !== 403) throw error;
    warning = ` (it lacks products:read: ${error.message})`;
  }
  const file = await writeConfig({ apiKey, baseUrl });
  const environment = apiKey.startsWith('sk_live_') ? 'live' : 'test';
  if (flags.json) out(json({ baseUrl, environment, key: `${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`, configFile: file }));
  else out(`Logged in to ${baseUrl} with a ${environment} key (${apiKey.slice(0, 8)}…${apiKey.slice(-4)})${warning}; saved to ${file}`);
}

const PRODUCT_COLUMNS = [['productId', 'id'], 'gtin', 'name', 'category', 'status', ['createdAt', 'created']] as const;

async function products(command: string | undefined, args: string[], flags: Flags) {
  if (command !== 'list' && command !== 'create' && command !== 'get') throw new UsageError('passport products list|create|get');
  const api = await client(flags);
  if (command === 'list') {
    const limit = flags.all ? Number.POSITIVE_INFINITY : (integer(flags.limit, 'limit') ?? 25);
    const list = await api.products.list({ ...(flags.q ? { q: flags.q } : {}), limit: Math.min(100, Number.isFinite(limit) ? Math.max(1, limit) : 100) }).toArray(limit);
    if (flags.json) return out(json(list));
    out(table(list, PRODUCT_COLUMNS));
    if (!flags.all && list.length === limit) process.stderr.write(`(the first ${limit}: --limit N or --all for more)\n`);
    return;
  }
  if (command === 'create') {
    const body: CreateProductBody = {
      name: required(flags, 'name'),
      category: required(flags, 'category') as CreateProductBody['category'],
      gtin: required(flags, 'gtin'),
      ...(flags.brand ? { brand: flags.brand } : {}),
      ...(flags.sku ? { sku: flags.sku } : {}),
    };
    const created = await api.products.create(body);
    return out(flags.json ? json(created) : details(created));
  }
  const productId = args[0] ?? '';
  if (!productId) throw new UsageError('passport products get PRODUCT_ID');
  const product = await api.products.get(productId);
  return out(flags.json ? json(product) : details(product));
}

async function readJsonFile(file: string): Promise<unknown> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

async function publishPassport(args: string[], flags: Flags) {
  const file = args[0];
  if (!file) throw new UsageError('passport passports publish FILE [--product PRODUCT_ID]');
  const content = (await readJsonFile(file)) as Record<string, unknown>;
  // The file is the POST body ({productId, data}), or the data alone with --product.
  const body = (flags.product ? { productId: flags.product, data: content } : content) as PublishPassportBody;
  if (!body.productId) throw new UsageError(`${file} names no productId: give --product PRODUCT_ID`);
  const published = await (await client(flags)).passports.publish(body, flags['as-of'] ? { asOf: flags['as-of'] } : {});
  out(flags.json ? json(published) : details(published));
}

const FORMATS: Record<string, ImportFormat> = { '.csv': 'csv', '.xlsx': 'xlsx', '.jsonl': 'ndjson', '.ndjson': 'ndjson' };

async function importFile(args: string[], flags: Flags) {
  const file = args[0];
  if (!file) throw new UsageError('passport import FILE [--dry-run] [--items --product PRODUCT_ID [--force]]');
  const format = FORMATS[extname(file).toLowerCase()];
  if (!format) throw new UsageError(`${file}: a .csv, .xlsx, .jsonl or .ndjson file`);
  if (flags.items && !flags.product) throw new UsageError('--items needs --product PRODUCT_ID');
  const api = await client(flags);
  const bytes = new Uint8Array(await readFile(file));
  const started = await api.imports.create(bytes, {
    format,
    fileName: file.split(/[\\/]/).pop() ?? file,
    ...(flags['dry-run'] ? { dryRun: true } : {}),
    ...(flags.items ? { type: 'items' as const, productId: flags.product } : {}),
    // A live battery model on the platform's host (docs/brand-domains.md#battery-items).
    ...(flags.force ? { force: 'true' as const } : {}),
  });
  let job;
  if ('counts' in started) job = started;
  else {
    const bar = progressBar(process.stderr);
    job = await api.imports.wait(started.id, { intervalMs: 500, onProgress: (j) => bar.update(rowsDone(j), j.counts.rows, j.status) });
    bar.done();
  }
  if (flags.json) out(json(job));
  else {
    out(details({ import: job.id, status: job.status, dryRun: job.dryRun, ...job.counts }));
    if (job.errors.length) out(`\n${table(job.errors.slice(0, 20), ['row', 'column', 'message'])}`);
    if (job.errors.length > 20 || job.errorsTruncated) out(`… and more: passport import results in --json, or GET /v1/imports/${job.id}`);
  }
  if (job.status === 'failed' || job.counts.failed > 0) process.exitCode = 1;
}

async function exportFile(flags: Flags) {
  const api = await client(flags);
  const format = flags.json ? 'ndjson' : (flags.format ?? 'csv');
  if (format !== 'csv' && format !== 'ndjson') throw new UsageError('--format csv or ndjson');
  if (flags.items && !flags.product) throw new UsageError('--items needs --product PRODUCT_ID');
  const pages = flags.items ? api.exports.itemPages(flags.product ?? '', { format }) : api.exports.productPages({ format });
  const parts: string[] = [];
  const sink = flags.output ? (text: string) => void parts.push(text) : (text: string) => void toStdout(text);
  if (format === 'csv') for await (const text of csvFile(pages)) sink(text);
  else for await (const page of pages) sink(page.text);
  if (flags.output) await writeFile(flags.output, parts.join(''));
}

async function qr(args: string[], flags: Flags) {
  const target = args[0];
  if (!target) throw new UsageError('passport qr PRODUCT_ID|GTIN > qr.svg');
  const api = await client(flags);
  let productId = target;
  if (/^\d{8,14}$/.test(target)) {
    // A GTIN: the product whose GTIN it is (the search matches GTIN prefixes; the GTIN-14 must be equal).
    const matches: Product[] = await api.products.list({ q: target }).toArray(100);
    const product = matches.find((p) => p.gtin === target.padStart(14, '0'));
    if (!product) throw new UsageError(`no product with GTIN ${target}`);
    productId = product.productId;
  }
  const svg = await api.products.qr(productId, { ...(flags.size ? { size: integer(flags.size, 'size') } : {}), ...(flags.margin ? { margin: integer(flags.margin, 'margin') } : {}) });
  if (flags.output) await writeFile(flags.output, svg);
  else toStdout(svg);
}

async function tail(flags: Flags) {
  const api = await client(flags);
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  const seconds = flags.interval === undefined ? 2 : Number(flags.interval);
  if (!(seconds > 0)) throw new UsageError('--interval takes a number of seconds');
  const onStart = () => process.stderr.write('Waiting for events (Ctrl-C to stop)…\n');
  for await (const event of api.events.tail({ signal: controller.signal, intervalMs: seconds * 1000, onStart, ...(flags.type ? { type: flags.type as EventType } : {}) })) {
    const object = event.data.object as Record<string, unknown>;
    const subject = object.productId ?? object.id ?? object.supplierId ?? object.importId ?? '';
    out(flags.json ? json(event, { compact: true }) : `${event.createdAt}  ${event.type.padEnd(24)} ${String(subject).padEnd(38)} ${event.actor.name ?? event.actor.id}`);
  }
}

// ---- The EU registry (docs/cli.md#the-eu-registry, docs/registry.md) --------------------------------

const REGISTRATION_STATUSES: readonly Registration['status'][] = ['pending_checks', 'ready', 'submitted', 'registered', 'rejected', 'deactivated'];
/** At most this many product ids a createRegistrations call names (the API's limit). */
const PRODUCTS_PER_CALL = 100;

/** What needs a person: entries the registry rejected, and those our pre-checks hold (pending_checks with reasons). */
const needsAttention = (registration: Registration): boolean =>
  registration.status === 'rejected' || (registration.status === 'pending_checks' && registration.reasons.length > 0);
const reasonsText = (registration: Pick<Registration, 'reasons'>): string => registration.reasons.map((r) => `${r.code}: ${r.message}`).join(' | ');

async function registry(command: string | undefined, argv: string[]) {
  // --product may be given more than once here: the command line is read again with it as a list.
  const { values } = parseArgs({ args: argv, options: { ...OPTIONS, product: { type: 'string', multiple: true } }, allowPositionals: true, strict: true });
  const { product: products = [], ...flags } = values;
  if (command === 'status') return registryStatus(products, flags);
  if (command === 'submit') return registrySubmit(products, flags);
  if (command === 'files') return registryFiles(flags);
  throw new UsageError('passport registry status|submit|files');
}

/** Counts per status and the entries that need a person, with their reasons: every registration read, 100 a page. */
async function registryStatus(products: string[], flags: Flags) {
  if (products.length > 1) throw new UsageError('registry status takes one --product');
  const api = await client(flags);
  const counts = Object.fromEntries(REGISTRATION_STATUSES.map((status) => [status, 0])) as Record<Registration['status'], number>;
  const attention: Registration[] = [];
  for await (const registration of api.registry.listRegistrations({ limit: 100, ...(products[0] ? { productId: products[0] } : {}) })) {
    counts[registration.status] += 1;
    if (needsAttention(registration)) attention.push(registration);
  }
  if (flags.json) {
    return out(json({ counts, total: Object.values(counts).reduce((a, b) => a + b, 0), attention: attention.map(({ id, status, granularity, upi, productId, reasons }) => ({ id, status, granularity, upi, productId, reasons })) }));
  }
  out(table(REGISTRATION_STATUSES.map((status) => ({ status, count: counts[status] })), ['status', 'count']));
  if (attention.length === 0) return out('\nNo entry is rejected or held.');
  out(`\nRejected or held (${attention.length}): fix the cause, then resubmit (docs/registry.md#fix-and-resubmit)`);
  out(table(attention.map((r) => ({ ...r, reasonsText: reasonsText(r) })), ['status', 'id', 'upi', ['reasonsText', 'reasons']]));
}

/** Creates the missing registrations of the products named, or of every product, call after call until none is left. */
async function registrySubmit(products: string[], flags: Flags) {
  if (Boolean(flags.all) === (products.length > 0)) throw new UsageError('passport registry submit (--product PRODUCT_ID ... | --all)');
  const api = await client(flags);
  const total = { created: 0, existing: 0, calls: 0 };
  const add = (answer: { created: number; existing: number }) => {
    total.created += answer.created;
    total.existing += answer.existing;
    total.calls += 1;
  };
  if (flags.all) {
    // Each call creates at most 1,000 and says whether more are missing.
    for (let more = true; more; ) {
      const answer = await api.registry.createRegistrations({ all: true });
      add(answer);
      more = answer.hasMore;
    }
  } else {
    const ids = [...new Set(products)];
    for (let i = 0; i < ids.length; i += PRODUCTS_PER_CALL) {
      const chunk = ids.slice(i, i + PRODUCTS_PER_CALL);
      for (let more = true; more; ) {
        const answer = await api.registry.createRegistrations({ productIds: chunk });
        add(answer);
        more = answer.hasMore;
      }
    }
  }
  out(flags.json ? json(total) : details(total));
}

/**
 * Builds the upload files (POST /v1/registry/files: the entries in them are marked submitted) and
 * writes them into DIR/{correlationId}/, never over an existing file: a second run's files go in a
 * directory of their own. The entries held back are listed with their reasons.
 */
async function registryFiles(flags: Flags) {
  const format = flags.format ?? 'json';
  if (format !== 'json' && format !== 'xml') throw new UsageError('--format json or xml');
  const api = await client(flags);
  const answer = await api.registry.buildFiles(format);
  const written: { name: string; path: string; entries: number; sha256: string }[] = [];
  if (answer.correlationId && answer.files.length) {
    const dir = join(flags.output ?? '.', answer.correlationId);
    await mkdir(dir, { recursive: true });
    for (const file of answer.files) {
      const path = join(dir, file.name);
      await writeFile(path, file.content, { flag: 'wx' });
      written.push({ name: file.name, path, entries: file.entries, sha256: file.sha256 });
    }
  }
  if (flags.json) return out(json({ correlationId: answer.correlationId, files: written, submitted: answer.submitted, pendingChecks: answer.pendingChecks, more: answer.more }));
  if (written.length) {
    out(`${answer.submitted} entries in ${written.length} files, marked submitted (${answer.correlationId}): upload them in this order`);
    out(table(written, ['path', 'entries', 'sha256']));
  } else out('No entry passed the pre-checks: no file.');
  if (answer.pendingChecks.length) {
    out(`\nHeld back (${answer.pendingChecks.length}), in no file:`);
    out(table(answer.pendingChecks.map((p) => ({ ...p, reasonsText: reasonsText(p) })), [['registrationId', 'id'], 'upi', ['reasonsText', 'reasons']]));
  }
  if (answer.more) process.stderr.write('More registrations wait than one call takes: run passport registry files again.\n');
}

async function main(argv: string[]) {
  const { values: flags, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  const [command, sub, ...rest] = positionals;
  if (flags.help || !command || command === 'help') return out(HELP);
  switch (command) {
    case 'login':
      return login(flags);
    case 'products':
      return products(sub, rest, flags);
    case 'passports':
      if (sub !== 'publish') throw new UsageError('passport passports publish FILE');
      return publishPassport(rest, flags);
    case 'import':
      return importFile([sub ?? '', ...rest].filter(Boolean), flags);
    case 'export':
      return exportFile(flags);
    case 'qr':
      return qr([sub ?? '', ...rest].filter(Boolean), flags);
    case 'events':
      if (sub !== 'tail') throw new UsageError('passport events tail');
      return tail(flags);
    case 'registry':
      return registry(sub, argv);
    default:
      throw new UsageError(`unknown command ${command}: passport help`);
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  process.exitCode = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  if (error instanceof PassportError) {
    const where = [error.type, error.param && `param ${error.param}`, error.requestId && `request ${error.requestId}`].filter(Boolean).join(', ');
    process.stderr.write(printable(`error: ${error.message} (${where})\n`));
  } else {
    process.stderr.write(printable(`error: ${(error as Error).message}\n`));
  }
}
