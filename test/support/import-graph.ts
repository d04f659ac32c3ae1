import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** One import of one module: where from, where to, and whether only types cross it. */
export interface ImportEdge {
  from: string;
  /** A repository-relative path for a relative import; the package name otherwise. */
  to: string;
  typeOnly: boolean;
}

const SOURCE = /\.(ts|tsx)$/;

/** Every `.ts`/`.tsx` file below the given folders, repository-relative with `/` separators. */
export function sourceFiles(root: string, folders: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const folder of folders) walk(folder);
  return out.sort();
}

/** The imports of one file, read with TypeScript's own parser (static, re-exports and `import()`). */
export function importsOf(file: string, source: string): ImportEdge[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    const to = specifier.startsWith('.') ? normalize(join(dirname(file), specifier)).split('\\').join('/') : specifier;
    edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const allTypes = clause !== undefined && (clause.isTypeOnly || (!clause.name && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) add(arg.text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** The import graph of the given folders. */
export function readImportGraph(root: string, folders: readonly string[]): ImportEdge[] {
  return sourceFiles(root, folders).flatMap((file) => importsOf(file, readFileSync(join(root, file), 'utf8')));
}

/**
 * The layers of the runtime code, lowest first (docs/architecture.md#layers). A module may import
 * its own layer's files and any lower layer; `lib/config.ts` and `lib/domain` are the floor.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['lib/domain', 'lib/config.ts'],
  ['lib/data'],
  ['lib/http'],
  ['lib/auth'],
  ['lib/services'],
  ['lib/api'],
  ['functions'],
];

/** The layer (its index in LAYERS) and unit (folder or file) a path belongs to; undefined outside the runtime layers. */
export function layerOf(path: string): { layer: number; unit: string } | undefined {
  for (const [layer, units] of LAYERS.entries()) {
    for (const unit of units) {
      if (path === unit || path.startsWith(`${unit}/`)) return { layer, unit };
    }
  }
  return undefined;
}

/** The one-way rules, each broken import described in a sentence. */
export function layerViolations(edges: readonly ImportEdge[], isPure: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const { from, to, typeOnly } of edges) {
    if (!to.includes('/') || !/^(lib|functions|infra|dashboard|test|events)\//.test(to)) continue; // a package
    const say = (why: string): void => {
      out.push(`${from} → ${to}: ${why}`);
    };
    if (to.startsWith('infra/') && !from.startsWith('infra/')) {
      say('nothing outside infra/ imports infra/');
      continue;
    }
    if (to.startsWith('test/') && !from.startsWith('test/')) {
      say('runtime code never imports tests');
      continue;
    }
    if (from.startsWith('dashboard/src/')) {
      if (to.startsWith('lib/') && !typeOnly && !isPure(to)) say('the dashboard takes values from lib/ only from modules that import no package (zod-free); use `import type` otherwise');
      else if (!to.startsWith('lib/') && !to.startsWith('dashboard/src/')) say('the dashboard imports only its own files and lib/');
      continue;
    }
    const source = layerOf(from);
    if (!source) continue; // infra, tests, tooling: above everything
    if (to.startsWith('dashboard/')) {
      say('runtime code never imports the dashboard');
      continue;
    }
    const target = layerOf(to);
    if (!target) {
      say('runtime code imports only lib/ and functions/');
      continue;
    }
    if (target.unit === source.unit) continue;
    if (target.layer >= source.layer) say(`${source.unit} (layer ${source.layer}) may import only lower layers, not ${target.unit} (layer ${target.layer})`);
  }
  return out;
}

/** Import cycles between files (strongly connected components of more than one file), each as a list of files. */
export function cycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to, typeOnly } of edges) {
    if (typeOnly || !to.startsWith('lib/') && !to.startsWith('functions/')) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  // Tarjan's algorithm.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, indices.get(w) ?? 0));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!indices.has(v)) connect(v);
  return found;
}

/** Whether a module and everything it imports (transitively, values only) uses no npm package or Node built-in. */
export function pureModules(edges: readonly ImportEdge[]): (path: string) => boolean {
  const byFile = new Map<string, ImportEdge[]>();
  for (const edge of edges) byFile.set(edge.from, [...(byFile.get(edge.from) ?? []), edge]);
  const memo = new Map<string, boolean>();
  const pure = (path: string): boolean => {
    const known = memo.get(path);
    if (known !== undefined) return known;
    memo.set(path, true); // a cycle does not make a module impure
    const result = (byFile.get(path) ?? []).every((edge) => edge.typeOnly || (edge.to.startsWith('lib/') && pure(edge.to)));
    memo.set(path, result);
    return result;
  };
  return pure;
}

export const relativeTo = (root: string, path: string): string => relative(root, path).split('\\').join('/');
