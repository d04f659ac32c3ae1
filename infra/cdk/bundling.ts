import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/** The repository root (where package.json, package-lock.json and tsconfig.json live). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * How every function is bundled: one place, used by the CDK stack (NodejsFunction, which runs the
 * locally installed esbuild, never Docker) and by the bundle budget (`npm run bundles`, esbuild's
 * API), so the measured bundles are the deployed ones.
 *
 * ESM output for Node 22 on Lambda, minified, with source maps (without the sources' text, which
 * only makes the zip bigger) and everything bundled: the AWS SDK too, so a function ships the SDK
 * version it was tested with and loads only the clients it imports. The SDK's credential chain is
 * replaced by its first link, the environment, which is where Lambda puts the role's credentials
 * (infra/cdk/lambda-credentials.ts). Bundled CommonJS packages
 * call `require` for Node built-ins, which an ES module does not have: the banner defines it.
 */
export const BUNDLE = {
  target: 'node22',
  platform: 'node',
  format: 'esm',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  external: [] as string[],
  alias: { '@aws-sdk/credential-provider-node': join(REPO_ROOT, 'infra', 'cdk', 'lambda-credentials.ts') } as Record<string, string>,
  banner: "import { createRequire as __passportCreateRequire } from 'node:module'; const require = __passportCreateRequire(import.meta.url);",
} as const;

/** NODE_OPTIONS of every function but those that opt out: stack traces in the logs point at the TypeScript sources. */
export const LAMBDA_NODE_OPTIONS = '--enable-source-maps';

/** A function's NODE_OPTIONS (infra/functions.ts#FunctionSpec.sourceMapsAtRunTime); undefined for none. */
export const nodeOptionsOf = (spec: { sourceMapsAtRunTime?: false }): string | undefined =>
  spec.sourceMapsAtRunTime === false ? undefined : LAMBDA_NODE_OPTIONS;

/** The file NodejsFunction writes for ESM output, and the handler Lambda calls in it. */
export const BUNDLE_FILE = 'index.mjs';

/** NodejsFunction's `bundling` property for BUNDLE; `assets` (repository paths) are copied into `docs-assets/` beside the bundle. */
export function lambdaBundling(assets: readonly string[] = []): BundlingOptions {
  return {
    ...(assets.length
      ? {
          commandHooks: {
            beforeBundling: () => [],
            beforeInstall: () => [],
            afterBundling: (inputDir: string, outputDir: string) => [
              `mkdir -p "${outputDir}/docs-assets"`,
              ...assets.map((asset) => `cp "${inputDir}/${asset}" "${outputDir}/docs-assets/"`),
            ],
          },
        }
      : {}),
    target: BUNDLE.target,
    format: OutputFormat.ESM,
    minify: BUNDLE.minify,
    sourceMap: BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    mainFields: [...BUNDLE.mainFields],
    // An empty list, not the default: NodejsFunction leaves `@aws-sdk/*` out of the bundle otherwise.
    externalModules: [...BUNDLE.external],
    banner: BUNDLE.banner,
    esbuildArgs: Object.fromEntries(Object.entries(BUNDLE.alias).map(([from, to]) => [`--alias:${from}`, to])),
    forceDockerBundling: false,
  };
}

/** esbuild's own options for BUNDLE: what NodejsFunction runs, as an API call. */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: BUNDLE.platform,
    target: BUNDLE.target,
    format: BUNDLE.format,
    minify: BUNDLE.minify,
    sourcemap: BUNDLE.sourcemap,
    sourcesContent: BUNDLE.sourcesContent,
    mainFields: [...BUNDLE.mainFields],
    external: [...BUNDLE.external],
    banner: { js: BUNDLE.banner },
    alias: { ...BUNDLE.alias },
    absWorkingDir: REPO_ROOT,
    logLevel: 'warning',
  };
}
