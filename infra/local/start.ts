/**
 * `npm start`: the whole service on this machine. Flags: `--memory` (throwaway data),
 * `--port N` (or PORT; default 3000). DATA_DIR moves `.data/`.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureDemoOrganization } from './demo.ts';
import { DEMO_ACCOUNT } from './identity-provider.ts';
import { StartupError } from './errors.ts';
import { portIsFree } from './ports.ts';
import { REPO_ROOT, startLocalStack } from './stack.ts';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { memory: { type: 'boolean', default: false }, port: { type: 'string' } },
  });
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StartupError(`PORT must be a port number; got "${values.port ?? process.env.PORT}".`);
  if (!(await portIsFree(port))) {
    throw new StartupError(`Port ${port} is already in use: stop whatever uses it, or start on another port with "PORT=${port + 1} npm start".`);
  }
  const dataDir = resolve(process.env.DATA_DIR ?? join(REPO_ROOT, '.data'));
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

  const stack = await startLocalStack({
    port,
    memory: values.memory,
    dataDir,
    ...(process.env.RESOLVER_ORIGIN ? { resolverOrigin: process.env.RESOLVER_ORIGIN } : {}),
  });
  const credentialsFile = values.memory ? join(dataDir, 'run', `credentials-${port}.json`) : join(dataDir, 'credentials.json');
  const { credentials, created } = await ensureDemoOrganization(credentialsFile);
  const { info } = stack;

  console.log(`
Product Passport service is running at ${info.url}  (data: ${values.memory ? 'in memory' : join(dataDir, 'dynamodb')})

  ${created ? 'Created' : 'Using'} the demo organization ${credentials.orgId} (${credentials.name}):
    live key  ${credentials.keys.live}
    test key  ${credentials.keys.test}
  (also in ${credentialsFile})

  Try:  curl -H "Authorization: Bearer ${credentials.keys.test}" ${info.url}/v1/products

  Dashboard: ${info.dashboardUrl}  (sign in as ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password})
  (development identity provider ${info.oidcIssuer})

  DynamoDB Local ${info.dynamodbEndpoint}   SQS (fauxqs) ${info.sqsEndpoint}
  Health ${info.url}/health   Ready ${info.url}/ready   Admin: npm run admin -- --help   Stop: Ctrl+C
`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  if (error instanceof StartupError) {
    console.error(`npm start: ${error.message}`);
  } else {
    console.error('npm start failed:', error);
  }
  process.exit(1);
});
