import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);

/**
 * Runs `npm run admin -- …` as an operator would, against the suite's stack found by PORT, or
 * against another port, or a stack of a test's own (its port and data directory).
 */
export async function admin(args: string[], { port = inject('stack').port, dataDir = inject('dataDir') }: { port?: number; dataDir?: string } = {}) {
  try {
    const { stdout } = await run('npx', ['tsx', 'infra/admin/cli.ts', ...args], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DYNAMODB_ENDPOINT: '', TABLE_NAME: '', BACKUP_BUCKET: '', S3_ENDPOINT: '' },
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
