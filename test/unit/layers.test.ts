import { describe, expect, it } from 'vitest';
import { cycles, importsOf, layerViolations, pureModules, readImportGraph, type ImportEdge } from '../support/import-graph.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('imports point one way (docs/architecture.md#layers)', () => {
  it('the runtime code, infra and the dashboard break no layer rule', () => {
    // Prepare
    const edges = readImportGraph(ROOT, ['lib', 'functions', 'infra', 'dashboard/src']);

    // Act
    const violations = layerViolations(edges, pureModules(edges));

    // Assess
    expect(edges.length).toBeGreaterThan(200);
    expect(violations).toEqual([]);
  });

  it('no two modules of lib/ or functions/ import each other, directly or through others', () => {
    const edges = readImportGraph(ROOT, ['lib', 'functions']);

    expect(cycles(edges)).toEqual([]);
  });

  it('a synthetic graph with forbidden imports is refused, each with its reason', () => {
    // Prepare: one allowed import of each kind, and one of each forbidden kind.
    const edges: ImportEdge[] = [
      { from: 'functions/products/handler.ts', to: 'lib/api/handler.ts', typeOnly: false },
      { from: 'lib/services/products.ts', to: 'lib/data/products.ts', typeOnly: false },
      { from: 'infra/cdk/stack.ts', to: 'lib/api/routes.ts', typeOnly: false },
      { from: 'dashboard/src/api.ts', to: 'lib/domain/product.ts', typeOnly: true },
      { from: 'lib/http/errors.ts', to: 'lib/auth/session.ts', typeOnly: false },
      { from: 'lib/auth/users.ts', to: 'lib/services/sandbox.ts', typeOnly: false },
      { from: 'lib/api/routes.ts', to: 'infra/functions.ts', typeOnly: true },
      { from: 'dashboard/src/api.ts', to: 'lib/domain/passport.ts', typeOnly: false },
      { from: 'lib/domain/passport.ts', to: 'zod', typeOnly: false },
      { from: 'lib/domain/gtin.ts', to: 'lib/data/products.ts', typeOnly: false },
    ];

    // Act
    const violations = layerViolations(edges, pureModules(edges));

    // Assess
    expect(violations).toEqual([
      expect.stringMatching(/^lib\/http\/errors\.ts → lib\/auth\/session\.ts: lib\/http \(layer 2\) may import only lower layers/),
      expect.stringMatching(/^lib\/auth\/users\.ts → lib\/services\/sandbox\.ts: lib\/auth \(layer 3\)/),
      'lib/api/routes.ts → infra/functions.ts: nothing outside infra/ imports infra/',
      expect.stringMatching(/^dashboard\/src\/api\.ts → lib\/domain\/passport\.ts: the dashboard takes values from lib\/ only from modules that import no package/),
      expect.stringMatching(/^lib\/domain\/gtin\.ts → lib\/data\/products\.ts/),
    ]);
  });

  it('a synthetic cycle of two files is found', () => {
    const edges: ImportEdge[] = [
      { from: 'lib/domain/passport.ts', to: 'lib/domain/passport-view.ts', typeOnly: false },
      { from: 'lib/domain/passport-view.ts', to: 'lib/domain/passport.ts', typeOnly: false },
      { from: 'lib/domain/gtin.ts', to: 'lib/domain/passport.ts', typeOnly: false },
    ];

    expect(cycles(edges)).toEqual([['lib/domain/passport-view.ts', 'lib/domain/passport.ts']]);
  });

  it('reads type-only imports, re-exports and dynamic imports as such', () => {
    const source = [
      "import type { A } from './a.ts';",
      "import { type B, type C } from './b.ts';",
      "import { d, type E } from './d.ts';",
      "export { f } from '../f.ts';",
      "const g = await import('./g.ts');",
      "import z from 'zod';",
    ].join('\n');

    const edges = importsOf('lib/domain/x.ts', source);

    expect(edges).toEqual([
      { from: 'lib/domain/x.ts', to: 'lib/domain/a.ts', typeOnly: true },
      { from: 'lib/domain/x.ts', to: 'lib/domain/b.ts', typeOnly: true },
      { from: 'lib/domain/x.ts', to: 'lib/domain/d.ts', typeOnly: false },
      { from: 'lib/domain/x.ts', to: 'lib/f.ts', typeOnly: false },
      { from: 'lib/domain/x.ts', to: 'lib/domain/g.ts', typeOnly: false },
      { from: 'lib/domain/x.ts', to: 'zod', typeOnly: false },
    ]);
  });
});
