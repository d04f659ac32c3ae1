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
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, buildSync, context, type BuildOptions } from 'esbuild';

export const DASHBOARD_SRC = resolve(import.meta.dirname);
export const DASHBOARD_DIST = join(DASHBOARD_SRC, 'dist');
/** The files a build writes, besides source maps. */
export const DASHBOARD_FILES = ['index.html', 'app.js', 'styles.css'] as const;
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
