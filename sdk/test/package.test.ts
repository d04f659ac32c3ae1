import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { generate, GENERATED_FILES } from '../scripts/generate.ts';
import { baseUrl } from '../../test/support/api.ts';
import { REPO } from './support.ts';

/**
 * The package as its users meet it (docs/sdk.md): its types are the served document's, and its
 * core bundles for a browser with nothing of Node in it. That a wrong field name does not compile
 * is checked by the type check itself: wrong-fields.typecheck.ts.
 */

/** The first line where two texts differ, with the lines around it; undefined when equal. */
function firstDifference(committed: string, fresh: string): string | undefined {
  if (committed === fresh) return undefined;
  const [a, b] = [committed.split('\n'), fresh.split('\n')];
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a.slice(at, at + 3))}, served ${JSON.stringify(b.slice(at, at + 3))}`;
}

describe('the generated types', () => {
  it('are what openapi-typescript makes of the served GET /v1/openapi.json (else: npm run generate -w sdk)', async () => {
    // Prepare
    const served = (await (await fetch(`${baseUrl()}/v1/openapi.json`)).json()) as object;
    // Act
    const fresh = await generate(served);
    // Assess
    const differences = (['types', 'idempotent'] as const).flatMap((file) => {
      const difference = firstDifference(readFileSync(GENERATED_FILES[file], 'utf8'), fresh[file]);
      return difference ? [`${GENERATED_FILES[file]} differs from the served document at ${difference}: run \`npm run generate -w sdk\``] : [];
    });
    expect(differences).toEqual([]);
  });
});

describe('the core (sdk/src)', () => {
  it('bundles for a browser with no Node module in it, and an import of one function leaves the rest out', async () => {
    // Act
    const bundle = (stdin: string) =>
      build({ stdin: { contents: stdin, resolveDir: join(REPO, 'sdk/src'), loader: 'ts' }, bundle: true, platform: 'browser', format: 'esm', minify: true, write: false, metafile: true, logLevel: 'silent' });
    const whole = await bundle(`export * from './index.ts';`);
    const webhooksOnly = await bundle(`export { verifyWebhook } from './index.ts';`);
    // Assess
    const inputs = (result: typeof whole) => Object.keys(result.metafile.inputs);
    const inBundle = (result: typeof whole) => Object.values(result.metafile.outputs).flatMap((output) => Object.entries(output.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([path]) => path));
    expect(whole.errors).toEqual([]);
    expect(inputs(whole).filter((path) => path.startsWith('node:') || path.includes('(disabled)'))).toEqual([]);
    expect(inBundle(whole).some((path) => path.includes('openapi-fetch'))).toBe(true);
    expect(inBundle(webhooksOnly).some((path) => path.includes('standardwebhooks'))).toBe(true);
    expect(inBundle(webhooksOnly).filter((path) => /openapi-fetch|jose|client\.ts|resources\//.test(path))).toEqual([]);
    expect(webhooksOnly.outputFiles[0]!.contents.length).toBeLessThan(whole.outputFiles[0]!.contents.length / 2);
  });
});
