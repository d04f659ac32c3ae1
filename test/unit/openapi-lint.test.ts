import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../lib/api/openapi.ts';

/**
 * The generated OpenAPI document passes Spectral (`spectral:oas`, .spectral.yaml) and Redocly
 * (`recommended`, redocly.yaml) with no error and no warning. Both CLIs run from node_modules with
 * this Node, offline (Redocly's telemetry and update check off).
 */
const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(buildOpenApi(), null, 2));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a CLI and returns its standard output, whatever its exit code (a finding exits non-zero). */
function run(args: string[]): string {
  try {
    return execFileSync(process.execPath, args, {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    if (failed.stdout) return failed.stdout;
    throw new Error(`${args.join(' ')} failed: ${failed.stderr ?? String(error)}`);
  }
}

describe('the OpenAPI document under the linters', () => {
  it('has no Spectral (spectral:oas) error or warning', () => {
    // Act
    const output = run([bin('spectral'), 'lint', file, '--ruleset', join(root, '.spectral.yaml'), '--format', 'json', '--quiet']);
    // Assess
    const results = JSON.parse(output.trim() || '[]') as Array<{ code: string; message: string; path: string[]; severity: number }>;
    expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  }, 60_000);

  it('has no Redocly (recommended) error or warning', () => {
    // Act
    const output = run([bin('redocly'), 'lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json']);
    // Assess
    const report = JSON.parse(output.slice(output.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
    };
    expect(report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
