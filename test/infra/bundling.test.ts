import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, BUNDLE_FILE, esbuildOptions, nodeOptionsOf, REPO_ROOT } from '../../infra/cdk/bundling.ts';
import { PassportStack } from '../../infra/cdk/stack.ts';
import { routesOf } from '../../lib/api/routes.ts';
import { FUNCTIONS } from '../../infra/functions.ts';

/**
 * Real bundling, once: the CDK stack bundles the resolver with NodejsFunction (local esbuild, no
 * Docker) and the bundle then runs in a fresh Node process against a loopback stand-in for
 * DynamoDB (the infra tier starts no stack).
 */
const outdir = mkdtempSync(join(tmpdir(), 'passport-cdk-'));
let bundleDir = '';

beforeAll(() => {
  const app = new App({ outdir, builtinCloudFormationValidation: false, context: { 'aws:cdk:enable-asset-metadata': true } });
  const stack = new PassportStack(app, 'BundleTest', {
    functions: { resolver: FUNCTIONS.resolver },
    routes: routesOf('resolver'),
  });
  app.synth();
  const fn = stack.functions.resolver?.node.defaultChild as CfnFunction;
  bundleDir = join(outdir, Stack.of(fn).resolve(fn.getMetadata('aws:asset:path')) as string);
}, 120_000);

afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** Runs `script` (an ES module body) in a fresh Node process and returns its stdout. */
function runNode(script: string, env: NodeJS.ProcessEnv): string {
  return execFileSync(process.execPath, ['--input-type=module', '--eval', script], { env, encoding: 'utf8' });
}

describe('NodejsFunction bundling', () => {
  it('writes a minified ESM bundle with its source map and the require banner, speaking to DynamoDB without the AWS SDK’s clients', () => {
    // Act
    const code = readFileSync(join(bundleDir, BUNDLE_FILE), 'utf8');

    // Assess
    expect(existsSync(join(bundleDir, `${BUNDLE_FILE}.map`))).toBe(true);
    expect(code.startsWith(BUNDLE.banner)).toBe(true);
    expect(code).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
    expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
    expect(code).not.toMatch(/import\(\s*["']@aws-sdk\//);
    // The scan path's own AWS JSON client (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk):
    // its operations are in the bundle, the SDK clients' user agent is not.
    expect(code).toContain('DynamoDB_20120810');
    expect(code).toContain('AmazonSQS');
    expect(code).not.toContain('aws-sdk-js');
    // Minified: long lines (the only line breaks left are inside template literals).
    expect(code.length / code.split('\n').length).toBeGreaterThan(2000);
  });

  it('runs in a fresh Node process: the resolver answers from DynamoDB through its bundled client', async () => {
    // Prepare: a DynamoDB endpoint on loopback that knows no item, and records the operations it is sent.
    const operations: string[] = [];
    const dynamodb = createServer((request, response) => {
      operations.push(String(request.headers['x-amz-target']));
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}'));
    });
    await new Promise<void>((resolve) => dynamodb.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`;
    const event = (path: string, routeKey: string, pathParameters: Record<string, string>) => ({
      version: '2.0',
      routeKey,
      rawPath: path,
      rawQueryString: '',
      headers: { accept: 'application/json', host: 'id.example.com' },
      pathParameters,
      requestContext: { http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' }, requestId: 'bundle-test', routeKey, stage: '$default' },
      isBase64Encoded: false,
    });
    const unknownGtin = event('/org_0123456789abcdef/live/01/04006381333931', 'GET /{orgId}/{environment}/01/{gtin}', {
      orgId: 'org_0123456789abcdef',
      environment: 'live',
      gtin: '04006381333931',
    });
    const description = event('/.well-known/gs1resolver', 'GET /.well-known/gs1resolver', {});
    const script = `
      const { handler } = await import(${JSON.stringify(pathToFileURL(join(bundleDir, BUNDLE_FILE)).href)});
      const context = { awsRequestId: 'bundle-test', functionName: 'resolver', getRemainingTimeInMillis: () => 5000 };
      const results = [];
      for (const event of ${JSON.stringify([description, unknownGtin])}) results.push((await handler(event, context)).statusCode);
      console.log(JSON.stringify(results));`;

    // Act
    const { stdout: output } = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', script], {
      encoding: 'utf8',
      env: {
        ...process.env,
        NODE_OPTIONS: nodeOptionsOf(FUNCTIONS.resolver) ?? '',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        AWS_REGION: 'eu-central-1',
        TABLE_NAME: 'product-passport',
        DYNAMODB_ENDPOINT: endpoint,
        RESOLVER_ORIGIN: 'https://id.example.com',
      },
    }).finally(() => dynamodb.close());

    // Assess
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '[]')).toEqual([200, 404]);
    expect(operations).toEqual(['DynamoDB_20120810.GetItem']);
  });
});

describe('the credential provider in bundles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'passport-credentials-'));
  const file = join(dir, 'probe.mjs');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    // A client built with the functions' bundling options, resolving its credentials.
    const { entryPoints: _entry, ...options } = esbuildOptions('unused.ts', file);
    await build({
      ...options,
      stdin: {
        contents: `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
          const client = new DynamoDBClient({ region: 'eu-central-1' });
          try { const c = await client.config.credentials(); console.log(JSON.stringify({ id: c.accessKeyId, token: c.sessionToken })); }
          catch (error) { console.log(JSON.stringify({ error: error.message })); }`,
        resolveDir: REPO_ROOT,
        sourcefile: 'probe.ts',
        loader: 'ts',
      },
    });
    writeFileSync(join(dir, 'credentials'), '[default]\naws_access_key_id = FROM_FILE\naws_secret_access_key = x\n');
  });

  const env = (extra: Record<string, string>) => ({
    PATH: process.env.PATH,
    HOME: dir,
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    ...extra,
  });

  it('takes the role credentials Lambda puts in the environment', () => {
    // Act
    const output = runNode(`await import(${JSON.stringify(pathToFileURL(file).href)});`, env({
      AWS_ACCESS_KEY_ID: 'ASIAFROMENVIRONMENT',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token',
    }));

    // Assess
    expect(JSON.parse(output)).toEqual({ id: 'ASIAFROMENVIRONMENT', token: 'token' });
  });

  it('leaves the rest of the SDK credential chain out of the bundle', () => {
    // Act
    const output = runNode(`await import(${JSON.stringify(pathToFileURL(file).href)});`, env({}));
    const code = readFileSync(file, 'utf8');

    // Assess: the shared credentials file is not read, and no STS/SSO client is bundled.
    expect(JSON.parse(output)).toEqual({ error: expect.stringMatching(/environment variable credentials/) });
    expect(code).not.toMatch(/AssumeRoleWithWebIdentity|sso-oidc|GetRoleCredentials/);
  });
});
