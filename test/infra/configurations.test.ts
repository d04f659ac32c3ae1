import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, resolverCertificateArn, settingsFromContext, type DeploySettings } from '../../infra/cdk/settings.ts';
import { CONSUMER_ACTIONS, validateTables, type FunctionTable, type StackRoute } from '../../infra/cdk/stack.ts';
import { createTableInput } from '../../lib/data/table.ts';
import { acknowledgements, actionsOf, functionLogicalId, logicalId, ofType, roleStatements, single, synthesize, type Synthesized } from './template.ts';

/**
 * The stack with a test-only function table (two scan consumers, a session function) and every
 * deployment setting, synthesized once: the wiring must follow the tables, not today's entries.
 */
const ENTRY = 'functions/products/handler.ts';
const TEST_FUNCTIONS: FunctionTable = {
  api: { entry: ENTRY, description: 'API', memoryMb: 256, timeoutSeconds: 10, grants: { table: ['dynamodb:GetItem'] } },
  account: {
    entry: ENTRY,
    description: 'Session routes',
    memoryMb: 256,
    timeoutSeconds: 10,
    grants: { table: ['dynamodb:GetItem', 'dynamodb:DeleteItem'], sessionSecret: true, cloudfrontTenants: ['cloudfront:CreateDistributionTenant', 'cloudfront:TagResource'] },
  },
  public: { entry: ENTRY, description: 'Public resolver', memoryMb: 256, timeoutSeconds: 5, grants: { table: ['dynamodb:GetItem'] }, functionUrl: true, logLevel: 'ERROR' },
  rollup: {
    entry: ENTRY,
    description: 'Scan consumer without SQS grants of its own',
    memoryMb: 512,
    timeoutSeconds: 40,
    grants: { table: ['dynamodb:UpdateItem'] },
    trigger: { kind: 'sqs', queue: 'scan', batchSize: 50, maxBatchingWindowSeconds: 3 },
  },
  counter: {
    entry: ENTRY,
    description: 'Scan consumer that also extends visibility',
    memoryMb: 512,
    timeoutSeconds: 20,
    grants: { table: ['dynamodb:UpdateItem'], scanQueue: ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility'] },
    trigger: { kind: 'sqs', queue: 'scan', batchSize: 10, maxBatchingWindowSeconds: 0 },
  },
};
const TEST_ROUTES: StackRoute[] = [
  { method: 'GET', path: '/v1/things', function: 'api', auth: 'apiKey' },
  { method: 'POST', path: '/v1/account', function: 'account', auth: 'session' },
  { method: 'GET', path: '/{orgId}/{environment}/01/{gtin}', function: 'public', auth: 'none' },
];
const SETTINGS: DeploySettings = {
  ...DEFAULT_SETTINGS,
  apiDomain: 'api.example.com',
  certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
  resolverDomain: 'id.example.com',
  resolverCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/66666666-7777-8888-9999-000000000000',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'example.com',
  authDomainPrefix: 'acme-passport',
  alarmEmail: 'ops@example.com',
  brandDistributionId: 'E2MULTITENANT01',
  brandCnameTarget: 'd111111abcdef8.cloudfront.net',
  logRetention: RetentionDays.THREE_MONTHS,
  apiRateLimit: 50,
  apiBurstLimit: 100,
  reservedConcurrency: { api: 40 },
};

/** The local table definition with its global secondary index projecting keys only, as another lib/data/table.ts may have. */
const TABLE_INPUT: CreateTableCommandInput = {
  ...createTableInput('t'),
  GlobalSecondaryIndexes: [
    { IndexName: 'GSI1', KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
  ],
};

let synth: Synthesized;
beforeAll(() => {
  synth = synthesize({ functions: TEST_FUNCTIONS, routes: TEST_ROUTES, settings: SETTINGS, tableInput: TABLE_INPUT });
});

const variablesOf = (name: string) =>
  (synth.resources[functionLogicalId(synth, name)]?.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

describe('scan consumers from a test-only function table', () => {
  it('maps the scan queue to each function with a trigger, with its batch settings and batch item failures', () => {
    // Prepare
    const consumers = Object.entries(TEST_FUNCTIONS).filter(([, spec]) => spec.trigger);

    // Act: the scan queue's mappings (the table stream's belong to the backup copy and the spill, test/infra/backup.test.ts and stack.test.ts)
    const mappings = ofType(synth, 'AWS::Lambda::EventSourceMapping')
      .map(([, m]) => m.Properties ?? {})
      .filter((m) => JSON.stringify(m.EventSourceArn).includes(logicalId(synth.stack.scanQueue)));

    // Assess
    expect(mappings).toHaveLength(2);
    for (const [name, spec] of consumers) {
      expect(mappings).toContainEqual(
        expect.objectContaining({
          FunctionName: { Ref: functionLogicalId(synth, name) },
          EventSourceArn: { 'Fn::GetAtt': [logicalId(synth.stack.scanQueue), 'Arn'] },
          BatchSize: spec.trigger?.batchSize,
          MaximumBatchingWindowInSeconds: spec.trigger?.maxBatchingWindowSeconds,
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        }),
      );
    }
  });

  it('sets the visibility timeout to six times the slowest consumer\'s timeout plus its batching window', () => {
    // Act
    const queue = synth.resources[logicalId(synth.stack.scanQueue)]?.Properties;

    // Assess
    expect(queue?.VisibilityTimeout).toBe(6 * 40 + 3);
  });

  it('grants a consumer the mapping\'s SQS actions plus its own, and a non-consumer none', () => {
    // Act
    const sqsActions = (name: string) => roleStatements(synth, name).statements.flatMap(actionsOf).filter((a) => a.startsWith('sqs:')).sort();

    // Assess
    expect(sqsActions('rollup')).toEqual([...CONSUMER_ACTIONS].sort());
    expect(sqsActions('counter')).toEqual([...CONSUMER_ACTIONS, 'sqs:ChangeMessageVisibility'].sort());
    expect(sqsActions('api')).toEqual([]);
  });

  it('gives the session key (ARN and GetSecretValue) only to the function with the grant', () => {
    // Act
    const readsSecret = (name: string) => roleStatements(synth, name).statements.flatMap(actionsOf).includes('secretsmanager:GetSecretValue');

    // Assess
    expect(readsSecret('account')).toBe(true);
    expect(variablesOf('account').SESSION_SECRET_ARN).toBeDefined();
    for (const name of ['api', 'rollup', 'counter']) {
      expect(readsSecret(name), name).toBe(false);
      expect(variablesOf(name).SESSION_SECRET_ARN, name).toBeUndefined();
    }
  });

  it('lets only the function with grants.cloudfrontTenants create tenants of the brand distribution, and tells it the distribution', () => {
    // Act
    const tenantStatements = (name: string) => roleStatements(synth, name).statements.filter((s) => actionsOf(s).some((a) => a.startsWith('cloudfront:')));

    // Assess
    const [statement, ...others] = tenantStatements('account');
    expect(others).toEqual([]);
    expect(actionsOf(statement!).sort()).toEqual(['cloudfront:CreateDistributionTenant', 'cloudfront:TagResource']);
    const resources = JSON.stringify(statement!.Resource);
    expect(resources).toContain(':distribution/E2MULTITENANT01');
    expect(resources).toContain(':distribution-tenant/*');
    expect(variablesOf('account').CLOUDFRONT_MULTI_TENANT_DISTRIBUTION_ID).toBe('E2MULTITENANT01');
    expect(variablesOf('account').BRAND_CNAME_TARGET).toBe('d111111abcdef8.cloudfront.net');
    for (const name of ['api', 'rollup', 'counter']) {
      expect(tenantStatements(name), name).toEqual([]);
      expect(variablesOf(name).CLOUDFRONT_MULTI_TENANT_DISTRIBUTION_ID, name).toBeUndefined();
    }
  });

  it('creates no routes or invoke permissions for queue-only functions', () => {
    // Act
    const invoked = JSON.stringify(ofType(synth, 'AWS::Lambda::Permission').map(([, p]) => p.Properties?.FunctionName));

    // Assess
    // The function-URL function's route is served by CloudFront, not API Gateway.
    expect(ofType(synth, 'AWS::ApiGatewayV2::Route')).toHaveLength(TEST_ROUTES.length - 1);
    expect(invoked).toContain(functionLogicalId(synth, 'api'));
    expect(invoked).toContain(functionLogicalId(synth, 'account'));
    expect(invoked).not.toContain(functionLogicalId(synth, 'rollup'));
    expect(invoked).not.toContain(functionLogicalId(synth, 'counter'));
  });
});

describe('the function behind the resolver distribution', () => {
  it('lets the brand distribution invoke its function URL too (OAC), and gives it a viewer-request function naming the platform origin', () => {
    // Act
    const permissions = ofType(synth, 'AWS::Lambda::Permission')
      .map(([, p]) => p.Properties ?? {})
      .filter((p) => JSON.stringify(p.SourceArn).includes(':distribution/E2MULTITENANT01'));
    const outputs = JSON.stringify(synth.template.toJSON().Outputs);

    // Assess
    expect(permissions.map((p) => p.Action).sort()).toEqual(['lambda:InvokeFunction', 'lambda:InvokeFunctionUrl']);
    for (const permission of permissions) {
      expect(permission.Principal).toBe('cloudfront.amazonaws.com');
      expect(JSON.stringify(permission.FunctionName)).toContain(functionLogicalId(synth, 'public'));
    }
    expect(outputs).toContain('BrandViewerRequestFunctionArn');
  });

  it('takes each function\'s application log level from the function table (WARN unless it names one)', () => {
    // Act
    const levelOf = (name: string) => (synth.resources[functionLogicalId(synth, name)]?.Properties?.LoggingConfig as Record<string, unknown>).ApplicationLogLevel;

    // Assess
    expect(levelOf('public')).toBe('ERROR');
    expect(levelOf('api')).toBe('WARN');
  });
});

describe('table indexes', () => {
  it('creates the indexes of the table definition and grants the table actions on them too', () => {
    // Prepare
    const tableArn = { 'Fn::GetAtt': [logicalId(synth.stack.table), 'Arn'] };

    // Act
    const table = single(synth, 'AWS::DynamoDB::Table');
    const statement = roleStatements(synth, 'account').statements.find((st) => actionsOf(st).includes('dynamodb:DeleteItem'));

    // Assess
    expect(table.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'GSI1', KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } },
    ]);
    expect(statement?.Resource).toEqual([tableArn, { 'Fn::Join': ['', [tableArn, '/index/GSI1']] }]);
  });
});

describe('deployment settings', () => {
  it('serves the API on its custom domain, with DNS aliases, and points the sign-in callback there', () => {
    // Act
    const callback = JSON.stringify(ofType(synth, 'AWS::Cognito::UserPoolClient')[0]?.[1].Properties?.CallbackURLs);

    // Assess
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: 'api.example.com' });
    synth.template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
    expect(variablesOf('api').PUBLIC_API_ORIGIN).toBe('https://api.example.com');
    expect(callback).toBe(JSON.stringify(['https://api.example.com/v1/auth/callback']));
    synth.template.hasResourceProperties('AWS::Route53::RecordSet', { Name: 'api.example.com.', Type: 'A', HostedZoneId: SETTINGS.hostedZoneId });
    synth.template.hasResourceProperties('AWS::Route53::RecordSet', { Name: 'api.example.com.', Type: 'AAAA' });
  });

  it('serves the resolver on its custom domain with TLS 1.2 and makes it every qrCodeUrl\'s origin', () => {
    // Act
    const config = single(synth, 'AWS::CloudFront::Distribution').DistributionConfig;

    // Assess
    expect(config).toMatchObject({
      Aliases: ['id.example.com'],
      ViewerCertificate: { AcmCertificateArn: SETTINGS.resolverCertificateArn, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
    });
    expect(variablesOf('api').RESOLVER_ORIGIN).toBe('https://id.example.com');
    // The function behind the distribution is given the custom domain (a literal: no cycle) and forwards it too.
    expect(variablesOf('public').RESOLVER_ORIGIN).toBe('https://id.example.com');
    // No viewer-request function on the platform distribution then (RESOLVER_ORIGIN names the origin): only the brand distribution's.
    // (The backup path's function, which drops /backup from the URI, is the other: docs/backup.md#the-backup-url.)
    const fn = ofType(synth, 'AWS::CloudFront::Function').map(([, r]) => r.Properties?.FunctionCode as string).filter((code) => !code.includes('request.uri'));
    expect(fn).toHaveLength(1);
    expect(fn[0]).toContain("'https://id.example.com'");
    expect((single(synth, 'AWS::CloudFront::Distribution').DistributionConfig as { DefaultCacheBehavior: Record<string, unknown> }).DefaultCacheBehavior.FunctionAssociations).toBeUndefined();
    synth.template.hasResourceProperties('AWS::Route53::RecordSet', { Name: 'id.example.com.', Type: 'A' });
  });

  it('applies the log retention, throttling, sign-in domain and alarm e-mail from the settings', () => {
    // Act
    const retentions = new Set(ofType(synth, 'AWS::Logs::LogGroup').map(([, g]) => g.Properties?.RetentionInDays));

    // Assess
    expect([...retentions]).toEqual([90]);
    synth.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 } });
    // Reserved concurrency for the function the deployment names, and none for the others.
    synth.template.hasResourceProperties('AWS::Lambda::Function', { Description: 'API', ReservedConcurrentExecutions: 40 });
    expect(Object.values(synth.template.findResources('AWS::Lambda::Function')).filter((fn) => fn.Properties?.ReservedConcurrentExecutions !== undefined)).toHaveLength(1);
    synth.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-passport' });
    synth.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('passes cdk-nag without the default-certificate acknowledgement', () => {
    // Act
    const report = new AwsSolutionsChecks(synth.app).validateScope(synth.stack);
    const acknowledged = acknowledgements(synth.stack).map((a) => a.id);

    // Assess
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
    expect(acknowledged.some((id) => id.endsWith('AwsSolutions-CFR4'))).toBe(false);
  });
});

describe('context values', () => {
  const appWith = (context: Record<string, unknown>) => new App({ context });

  it('reads every setting from CDK context', () => {
    // Prepare
    const app = appWith({
      apiDomain: 'api.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555',
      resolverDomain: 'id.example.com',
      logRetentionDays: '14',
      apiRateLimit: 20,
      accessReservedConcurrency: '50',
    });

    // Act
    const settings = settingsFromContext(app.node);

    // Assess
    expect(settings).toMatchObject({ apiDomain: 'api.example.com', resolverDomain: 'id.example.com', logRetention: 14, apiRateLimit: 20, apiBurstLimit: 1000, reservedConcurrency: { access: 50 } });
    // A certificate in us-east-1 serves CloudFront too.
    expect(resolverCertificateArn(settings)).toBe(settings.certificateArn);
  });

  it.each([
    [{ apiDomain: 'api.example.com' }, /needs certificateArn/],
    [{ resolverDomain: 'id.example.com', certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc-1' }, /us-east-1/],
    [{ logRetentionDays: '45' }, /retention periods/],
    [{ hostedZoneId: 'Z0123', apiDomain: 'api.example.com', certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc-1' }, /go together/],
    [{ authDomainPrefix: 'my-cognito-login' }, /authDomainPrefix/],
    [{ apiRateLimit: '-3' }, /positive integer/],
    [{ accessReservedConcurrency: '0' }, /positive integer/],
    [{ brandDistributionId: 'arn:aws:cloudfront::123456789012:distribution/E2X' }, /distribution id/],
    [{ brandCnameTarget: 'https://d111.cloudfront.net/' }, /brandCnameTarget/],
    [{ apiDomain: 'API.Example.com', certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/abc-1' }, /lower-case domain/],
  ])('refuses %j', (context, message) => {
    // Prepare
    const app = appWith(context);

    // Act
    const read = () => settingsFromContext(app.node);

    // Assess
    expect(read).toThrow(message);
  });
});

describe('route table checks', () => {
  const fn = TEST_FUNCTIONS.api;

  it.each([
    ['a session route on a function without the session key', { api: fn }, [{ method: 'GET', path: '/v1/me', function: 'api', auth: 'session' }], /grants.sessionSecret/],
    ['a route naming an unknown function', { api: fn }, [{ method: 'GET', path: '/v1/x', function: 'nope', auth: 'apiKey' }], /unknown function nope/],
    ['the same route twice', { api: fn }, [{ method: 'GET', path: '/v1/x', function: 'api', auth: 'apiKey' }, { method: 'GET', path: '/v1/x', function: 'api', auth: 'apiKey' }], /appears twice/],
    [
      'an SQS batch over 10 without a batching window',
      { q: { ...fn, trigger: { kind: 'sqs', queue: 'scan', batchSize: 100, maxBatchingWindowSeconds: 0 } } },
      [],
      /maxBatchingWindowSeconds of at least 1/,
    ],
  ] as [string, FunctionTable, StackRoute[], RegExp][])('refuses %s', (_, functions, routes, message) => {
    // Act
    const check = () => validateTables(functions, routes);

    // Assess
    expect(check).toThrow(message);
  });
});
