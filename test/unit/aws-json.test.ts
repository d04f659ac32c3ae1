import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AwsServiceError, awsJsonClient } from '../../lib/data/aws-json.ts';

/**
 * The scan path's AWS JSON client (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk)
 * against a loopback server: what it sends, that its SigV4 signature is the one an independent
 * computation over node:crypto gives, and how it retries.
 */
interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const seen: Seen[] = [];
let answers: { status: number; body: unknown }[] = [];
let endpoint = '';
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    const answer = answers.shift() ?? { status: 200, body: {} };
    res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(answer.body));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  answers = [];
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', AWS_SESSION_TOKEN: 'session-token-example' });
});

const dynamodb = () => awsJsonClient({ signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', region: 'eu-central-1', endpoint }, true);

/** SigV4 (AWS's "Create a signed AWS API request" steps) over what the server received, written out with node:crypto. */
function expectedSignature(request: Seen, secret: string): { scope: string; signature: string; signedHeaders: string } {
  const authorization = String(request.headers.authorization);
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1] ?? '';
  const amzDate = String(request.headers['x-amz-date']);
  const date = amzDate.slice(0, 8);
  const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${String(request.headers[name]).trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonicalRequest = [request.method, request.path.split('?')[0], '', canonicalHeaders, signedHeaders, sha256(request.body)].join('\n');
  const scope = `${date}/eu-central-1/dynamodb/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const key = ['eu-central-1', 'dynamodb', 'aws4_request'].reduce(hmac, hmac(`AWS4${secret}`, date));
  return { scope, signedHeaders, signature: createHmac('sha256', key).update(stringToSign).digest('hex') };
}

describe('the AWS JSON client', () => {
  it('POSTs the operation as JSON 1.0, signed with the environment’s credentials so that an independent SigV4 computation agrees', async () => {
    // Prepare
    answers = [{ status: 200, body: { Item: { PK: { S: 'A' } } } }];
    // Act
    const answer = await dynamodb().call('GetItem', { TableName: 't', Key: { PK: { S: 'A' }, SK: { S: 'B' } } });
    // Assess
    expect(answer).toEqual({ Item: { PK: { S: 'A' } } });
    const [request] = seen;
    if (!request) throw new Error('no request');
    expect(request).toMatchObject({ method: 'POST', path: '/', body: '{"TableName":"t","Key":{"PK":{"S":"A"},"SK":{"S":"B"}}}' });
    expect(request.headers).toMatchObject({ 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.GetItem', 'x-amz-security-token': 'session-token-example' });
    const expected = expectedSignature(request, 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY');
    expect(expected.signedHeaders.split(';')).toEqual(expect.arrayContaining(['host', 'x-amz-date', 'x-amz-target', 'x-amz-security-token', 'content-type']));
    expect(request.headers.authorization).toBe(`AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/${expected.scope}, SignedHeaders=${expected.signedHeaders}, Signature=${expected.signature}`);
  });

  it('a changed body no longer matches the signature', async () => {
    // Act
    await dynamodb().call('GetItem', { TableName: 't', Key: { PK: { S: 'A' }, SK: { S: 'B' } } });
    // Assess
    const request = seen[0] as Seen;
    const tampered = expectedSignature({ ...request, body: request.body.replace('"A"', '"Z"') }, 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY');
    expect(request.headers.authorization).not.toContain(tampered.signature);
  });

  it('retries a 500 and a throttling answer, then answers the third attempt’s result', async () => {
    // Prepare
    answers = [
      { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'try again' } },
      { status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' } },
      { status: 200, body: { Item: { PK: { S: 'A' } } } },
    ];
    // Act
    const answer = await dynamodb().call('GetItem', { TableName: 't', Key: {} });
    // Assess
    expect(answer).toEqual({ Item: { PK: { S: 'A' } } });
    expect(seen).toHaveLength(3);
  });

  it('gives up after three attempts with the service’s error, named as the SDK names it', async () => {
    // Prepare
    answers = Array.from({ length: 4 }, () => ({ status: 503, body: { __type: 'com.amazonaws.dynamodb.v20120810#ServiceUnavailable', message: 'down' } }));
    // Act
    const error = await dynamodb().call('GetItem', { TableName: 't', Key: {} }).catch((e: unknown) => e);
    // Assess
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject({ name: 'ServiceUnavailable', message: 'down', statusCode: 503 });
    expect(seen).toHaveLength(3);
  });

  it('does not retry a client error', async () => {
    // Prepare
    answers = [{ status: 400, body: { __type: 'com.amazon.coral.validate#ValidationException', Message: 'The provided key element does not match the schema' } }];
    // Act
    const error = await dynamodb().call('GetItem', { TableName: 't', Key: {} }).catch((e: unknown) => e);
    // Assess
    expect(error).toMatchObject({ name: 'ValidationException', message: 'The provided key element does not match the schema', statusCode: 400 });
    expect(seen).toHaveLength(1);
  });

  it('refuses to sign without credentials when the endpoint is AWS’s own', async () => {
    // Prepare
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    const aws = awsJsonClient({ signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', region: 'eu-central-1', endpoint }, false);
    // Act
    const error = await aws.call('GetItem', {}).catch((e: unknown) => e);
    // Assess
    expect(String(error)).toContain('AWS_ACCESS_KEY_ID');
    expect(seen).toHaveLength(0);
  });
});

describe('a dropped connection', () => {
  it('is tried again', async () => {
    // Prepare: a server that drops the first connection without answering, then answers
    let connections = 0;
    const flaky = createServer((req, res) => {
      connections++;
      req.resume();
      if (connections === 1) req.socket.destroy();
      else req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"MessageId":"m"}'));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const sqs = awsJsonClient({ signingName: 'sqs', targetPrefix: 'AmazonSQS', region: 'eu-central-1', endpoint: `http://127.0.0.1:${(flaky.address() as AddressInfo).port}` }, true);
    // Act
    const answer = await sqs.call('SendMessage', { QueueUrl: 'q', MessageBody: 'b' }).finally(() => flaky.close());
    // Assess
    expect(answer).toEqual({ MessageId: 'm' });
    expect(connections).toBe(2);
  });
});
