import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/**
 * The resolver answers every scan (docs/benchmarks.md): its bundle carries no zod, whose schemas
 * it never validates with. A page helper that imports a schema module by accident (the battery
 * page's warranty period once did) puts 88 KB on every cold start.
 */
describe('the resolver bundle', () => {
  it('bundles no zod', async () => {
    // Act
    const result = await build({
      entryPoints: [new URL('../../functions/resolver/handler.ts', import.meta.url).pathname],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'node',
      external: ['@aws-sdk/*'],
      logLevel: 'silent',
    });
    // Assess
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules/zod/'))).toEqual([]);
    expect(inputs.some((input) => input.endsWith('functions/resolver/page/battery.ts'))).toBe(true);
  });
});
