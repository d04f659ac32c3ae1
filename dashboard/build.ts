/**
 * Builds the dashboard into static files: `app.js` (Preact + the app, bundled and minified by
 * esbuild), `styles.css` and `index.html`. No CDN, nothing fetched at run time.
 *
 *   npx tsx dashboard/build.ts             # into dashboard/dist
 *   npx tsx dashboard/build.ts --watch     # rebuild on every change (reload the page)
 *   npx tsx dashboard/build.ts --out DIR
 *
 * `npm start` and the test suite's stack build it when they start (infra/local/dashboard.ts);
 * the CDK stack builds it during synthesis as the dashboard bucket's asset.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, buildSync, context, type BuildOptions } from 'esbuild';
import { buildOpenApi } from '../lib/api/openapi.ts';

export const DASHBOARD_SRC = resolve(import.meta.dirname);
export const DASHBOARD_DIST = join(DASHBOARD_SRC, 'dist');
/** The files a build writes, besides source maps. */
export const DASHBOARD_FILES = ['index.html', 'app.js', 'styles.css', 'battery-schemas.json'] as const;

/** The schemas the battery form is derived from (dashboard/src/battery-form.ts): these and every schema they refer to. */
export const BATTERY_SCHEMA_ROOTS = ['BatteryPassportData', 'BatteryItemData'] as const;

/**
 * The battery form's schemas as one static file beside the app (`battery-schemas.json`): the
 * OpenAPI document's `components.schemas` that BATTERY_SCHEMA_ROOTS reach, written at build time
 * from the same zod schemas the API validates with, so that the form neither bundles zod nor reads
 * the whole document (docs/dashboard.md#the-battery-passport-form).
 */
export function batterySchemasJson(): string {
  const schemas = (buildOpenApi().components as { schemas: Record<string, unknown> }).schemas;
  const reached = new Set<string>();
  const visit = (name: string): void => {
    if (reached.has(name) || !(name in schemas)) return;
    reached.add(name);
    for (const match of JSON.stringify(schemas[name]).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) visit(match[1] as string);
  };
  for (const root of BATTERY_SCHEMA_ROOTS) visit(root);
  return JSON.stringify(Object.fromEntries([...reached].sort().map((name) => [name, schemas[name]])));
}
const STATIC_FILES = ['index.html', 'styles.css'] as const;

function options(outDir: string): BuildOptions {
  return {
    entryPoints: [join(DASHBOARD_SRC, 'src/main.tsx')],
    outfile: join(outDir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(DASHBOARD_SRC, 'tsconfig.json'),
    legalComments: 'linked',
    logLevel: 'silent',
  };
}

function copyStatic(outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  for (const file of STATIC_FILES) copyFileSync(join(DASHBOARD_SRC, file), join(outDir, file));
  writeFileSync(join(outDir, 'battery-schemas.json'), batterySchemasJson());
}

/** Builds the dashboard into `outDir`. */
export async function buildDashboard(outDir: string = DASHBOARD_DIST): Promise<void> {
  copyStatic(outDir);
  await build(options(outDir));
}

/** The same, synchronously (CDK's local asset bundling cannot wait for a promise). */
export function buildDashboardSync(outDir: string = DASHBOARD_DIST): void {
  copyStatic(outDir);
  buildSync(options(outDir));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { watch: { type: 'boolean', default: false }, out: { type: 'string' } } });
  const outDir = resolve(values.out ?? DASHBOARD_DIST);
  if (!values.watch) {
    await buildDashboard(outDir);
    console.log(`Dashboard built into ${outDir}`);
    return;
  }
  copyStatic(outDir);
  const ctx = await context({
    ...options(outDir),
    logLevel: 'info',
    plugins: [{ name: 'static', setup: (b) => b.onEnd(() => copyStatic(outDir)) }],
  });
  await ctx.watch();
  console.log(`Watching dashboard/ and rebuilding into ${outDir} (Ctrl+C to stop)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
