/**
 * `npm run bundles`: the bundle budget. Bundles every FUNCTIONS entry exactly as the CDK stack
 * does (infra/cdk/bundling.ts), then reports each bundle's minified size and the time a fresh Node
 * process takes to import it, as a ratio to importing an empty module in the same run (both with
 * the functions' NODE_OPTIONS).
 * `--why` adds each bundle's largest packages. BUNDLE_RUNS sets the imports per figure (default 7).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_FILE, esbuildOptions, LAMBDA_NODE_OPTIONS, nodeOptionsOf, REPO_ROOT } from '../../infra/cdk/bundling.ts';
import { FUNCTIONS } from '../../infra/functions.ts';
import { printTable, type Row } from './measure.ts';

/** The budget every bundle stays under (minified, without its source map). */
export const BUDGET_BYTES = 500 * 1024;

export interface BundleFigure {
  name: string;
  bytes: number;
  gzipBytes: number;
  importMs: number;
  ratio: number;
  /** The largest contributors (package or source folder) in bytes of output. */
  largest: { input: string; bytes: number }[];
}

/** Bundles one function to `outDir/index.mjs` and returns its metafile. */
export async function bundleFunction(entry: string, outDir: string): Promise<Metafile> {
  const result = await build({ ...esbuildOptions(join(REPO_ROOT, entry), join(outDir, BUNDLE_FILE)), metafile: true });
  return result.metafile;
}

/** Wall time of a fresh `node` process that imports `file`, in milliseconds (median of `runs`). */
function importMs(file: string, runs: number, env: NodeJS.ProcessEnv): number {
  const script = `await import(${JSON.stringify(pathToFileURL(file).href)});`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const child = spawnSync(process.execPath, ['--input-type=module', '--eval', script], { env, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (child.status !== 0) throw new Error(`Importing ${file} failed:\n${child.stderr}`);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

function largestInputs(metafile: Metafile, limit: number): { input: string; bytes: number }[] {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint);
  const totals = new Map<string, number>();
  for (const [file, info] of Object.entries(output?.inputs ?? {})) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
    const key = pkg ?? file.split('/').slice(0, 2).join('/');
    totals.set(key, (totals.get(key) ?? 0) + info.bytesInOutput);
  }
  return [...totals].map(([input, bytes]) => ({ input, bytes })).sort((a, b) => b.bytes - a.bytes).slice(0, limit);
}

/** Bundles and measures every function; the figures the benchmark runner includes. */
export async function measureBundles(runs = Number(process.env.BUNDLE_RUNS ?? 7)): Promise<{ baselineMs: number; figures: BundleFigure[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'passport-bundles-'));
  // Module-level code may read configuration; give it what Lambda would, pointing nowhere, and
  // each function's NODE_OPTIONS (source maps cost load time; the baseline has the default's).
  const env = {
    PATH: process.env.PATH,
    NODE_OPTIONS: LAMBDA_NODE_OPTIONS,
    AWS_REGION: 'eu-central-1',
    TABLE_NAME: 'bundle-check',
    SCAN_QUEUE_URL: 'https://sqs.eu-central-1.amazonaws.com/000000000000/bundle-check',
    RESOLVER_ORIGIN: 'https://resolver.example.com',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  };
  try {
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, '');
    const built: { name: string; file: string; metafile: Metafile; nodeOptions: string }[] = [];
    for (const [name, spec] of Object.entries(FUNCTIONS)) {
      const outDir = join(dir, name);
      mkdirSync(outDir);
      built.push({ name, file: join(outDir, BUNDLE_FILE), metafile: await bundleFunction(spec.entry, outDir), nodeOptions: nodeOptionsOf(spec) ?? '' });
    }
    importMs(empty, 2, env); // warm the file system cache and the node binary
    const baselineMs = importMs(empty, runs, env);
    const figures = built.map(({ name, file, metafile, nodeOptions }) => {
      const ms = importMs(file, runs, { ...env, NODE_OPTIONS: nodeOptions });
      return {
        name,
        bytes: statSync(file).size,
        gzipBytes: gzipSync(readFileSync(file)).length,
        importMs: ms,
        ratio: ms / baselineMs,
        largest: largestInputs(metafile, 8),
      };
    });
    return { baselineMs, figures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bundle figures as benchmark rows (bench-results/latest.json). */
export async function benchBundles(): Promise<Row[]> {
  const { baselineMs, figures } = await measureBundles();
  return [
    { benchmark: 'bundles', figure: 'baseline: import an empty module', value: baselineMs, unit: 'ms', note: 'fresh node process' },
    ...figures.flatMap((f): Row[] => [
      {
        benchmark: `bundle.${f.name}`,
        figure: 'minified size',
        value: f.bytes / 1024,
        unit: 'KB',
        note: `${f.bytes <= BUDGET_BYTES ? 'within' : 'OVER'} the ${BUDGET_BYTES / 1024} KB budget; ${(f.gzipBytes / 1024).toFixed(0)} KB gzipped`,
      },
      { benchmark: `bundle.${f.name}`, figure: 'import time / baseline', value: f.ratio, unit: 'x', note: `${f.importMs.toFixed(0)} ms` },
    ]),
  ];
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { baselineMs, figures } = await measureBundles();
  console.log(`\nFunction bundles (esbuild ${BUNDLE_FILE}, budget ${BUDGET_BYTES / 1024} KB, Node ${process.version})\n`);
  printTable([
    { benchmark: 'bundles', figure: 'baseline: import an empty module', value: baselineMs, unit: 'ms' },
    ...figures.flatMap((f): Row[] => [
      { benchmark: `bundle.${f.name}`, figure: 'minified size', value: f.bytes / 1024, unit: 'KB', note: `${(f.gzipBytes / 1024).toFixed(0)} KB gzipped` },
      { benchmark: `bundle.${f.name}`, figure: 'import time / baseline', value: f.ratio, unit: 'x', note: `${f.importMs.toFixed(0)} ms` },
    ]),
  ]);
  if (process.argv.includes('--why')) {
    for (const f of figures) {
      console.log(`\n${f.name}: largest inputs`);
      for (const l of f.largest) console.log(`  ${(l.bytes / 1024).toFixed(1).padStart(8)} KB  ${l.input}`);
    }
  }
  const over = figures.filter((f) => f.bytes > BUDGET_BYTES);
  if (over.length) {
    console.error(`\nOver the ${BUDGET_BYTES / 1024} KB budget: ${over.map((f) => f.name).join(', ')}`);
    process.exitCode = 1;
  }
}
