import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSUMER_ACTIONS, deliveryQueueActions, importQueueActions, RESOLVER_HEADERS, readsSessionSecret, registryOutboxQueueActions, scanQueueActions, STREAM_CONSUMER_ACTIONS } from '../../infra/cdk/stack.ts';
import { BACKUP_PATH_PATTERN, CREDENTIAL_PATH_PATTERNS, PAGE_PATH_PATTERNS, viewerRequestCode } from '../../infra/cdk/constructs/resolver-cdn.ts';
import { DEFAULT_LOG_LEVEL, streamFailureQueueActions } from '../../infra/cdk/function-table.ts';
import { DEFAULT_SETTINGS } from '../../infra/cdk/settings.ts';
import { ROUTES } from '../../lib/api/routes.ts';
import { elabelPageUrl, passportJsonUrl } from '../../lib/domain/page-urls.ts';
import { FUNCTIONS, type FunctionSpec } from '../../infra/functions.ts';
import { decodeSessionSecret } from '../../lib/auth/session-key.ts';
import { createTableInput, GSI1, TABLE } from '../../lib/data/table.ts';
import {
  acknowledgements,
  actionsOf,
  functionLogicalId,
  logicalId,
  ofType,
  originOf,
  primaryOriginId,
  roleStatements,
  single,
  synthesize,
  type Synthesized,
} from './template.ts';

// The stack of infra/functions.ts and lib/api/routes.ts as they are, synthesized once for the whole file.
let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const functions = Object.entries(FUNCTIONS) as [string, FunctionSpec][];
/** The routes API Gateway serves: all but those of the functions behind their function URL (the resolver and its pages). */
const API_ROUTES = ROUTES.filter((route) => !FUNCTIONS[route.function].functionUrl);
const ref = (id: string) => ({ Ref: id });
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

describe('routes', () => {
  it('creates exactly one API route per ROUTES entry of the API Gateway functions, and none for the resolver or its pages (only the credential documents, docs/credentials.md, and the inspectors\' view)', () => {
    // Prepare
    const expected = API_ROUTES.map((r) => `${r.method} ${r.path}`).sort();

    // Act
    const routeKeys = ofType(synth, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey as string).sort();

    // Assess
    expect(routeKeys).toEqual(expected);
    const credentialDocuments = ROUTES.filter((route) => route.function === 'credentials' && route.auth === 'none').map((r) => `${r.method} ${r.path}`);
    // Beside the API: the credential documents, and readiness (docs/api.md#when-a-dependency-is-down).
    expect(routeKeys).toContain('GET /ready');
    // And the inspectors' view of a passport (docs/access.md#market-surveillance-authorities).
    expect(routeKeys.filter((key) => !/ \/(v1|docs|dashboard|inspect)(\/|$)/.test(key) && !credentialDocuments.includes(key) && key !== 'GET /ready')).toEqual([]);
    expect(routeKeys.filter((key) => /\/01\/|\/p\/\{gtin\}\/\{version\}\/\{page\}|gs1resolver/.test(key))).toEqual([]);
    expect(ROUTES.filter((route) => route.function === 'resolver').length).toBeGreaterThan(0);
  });

  it.each(API_ROUTES.map((route) => [`${route.method} ${route.path}`, route.function] as const))(
    '%s is integrated with the %s function (Lambda proxy, payload 2.0)',
    (key, fn) => {
      // Prepare
      const [, route] = ofType(synth, 'AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties?.RouteKey === key) ?? [];
      const target = JSON.stringify(route?.Properties?.Target);
      const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1] ?? '';

      // Act
      const integration = synth.resources[integrationId];

      // Assess
      expect(target).toContain('integrations/');
      expect(integration?.Type).toBe('AWS::ApiGatewayV2::Integration');
      expect(integration?.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: arnOf(functionLogicalId(synth, fn)),
      });
    },
  );

  it('lets API Gateway invoke each HTTP function and nothing else', () => {
    // Prepare
    const httpFunctions = [...new Set(API_ROUTES.map((r) => r.function))].map((name) => functionLogicalId(synth, name)).sort();

    // Act
    const invoked = ofType(synth, 'AWS::Lambda::Permission')
      .filter(([, p]) => p.Properties?.Principal === 'apigateway.amazonaws.com')
      .map(([, p]) => (p.Properties?.FunctionName as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0])
      .sort();

    // Assess
    expect(invoked).toEqual(httpFunctions);
  });

  it('throttles the default stage and writes access logs without IP addresses to a log group with retention', () => {
    // Prepare
    const stage = single(synth, 'AWS::ApiGatewayV2::Stage');
    const settings = stage.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': [string] }; Format: string };

    // Act
    const logGroup = synth.resources[settings.DestinationArn['Fn::GetAtt'][0]];

    // Assess
    expect(stage).toMatchObject({ StageName: '$default', AutoDeploy: true, DefaultRouteSettings: { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 } });
    expect(settings.Format).toContain('$context.requestId');
    expect(settings.Format).not.toMatch(/sourceIp|userAgent/);
    expect(logGroup?.Properties?.RetentionInDays).toBe(30);
  });
});

describe('functions', () => {
  it('creates one Node 22 ARM64 function per FUNCTIONS entry, with its memory and timeout', () => {
    for (const [name, spec] of functions) {
      // Act
      const fn = synth.resources[functionLogicalId(synth, name)];

      // Assess
      expect(fn?.Properties, name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: spec.memoryMb,
        Timeout: spec.timeoutSeconds,
      });
    }
    // And the backup function, which its own construct makes (infra/cdk/constructs/backup.ts; test/infra/backup.test.ts).
    expect(ofType(synth, 'AWS::Lambda::Function')).toHaveLength(functions.length + 1);
  });

  it.each(functions)('%s: its role holds only the actions its grants list, on the resources they concern', (name, spec) => {
    // Prepare
    const tableId = logicalId(synth.stack.table);
    const queueId = logicalId(synth.stack.scanQueue);
    const secretId = logicalId(synth.stack.sessionSecret);
    const expected = [
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      ...spec.grants.table,
      ...scanQueueActions(spec),
      ...importQueueActions(spec),
      ...deliveryQueueActions(spec),
      ...registryOutboxQueueActions(spec),
      ...(spec.trigger?.kind === 'tableStream' ? STREAM_CONSUMER_ACTIONS : []),
      ...streamFailureQueueActions(spec.trigger),
      ...(readsSessionSecret(name, spec) ? ['secretsmanager:GetSecretValue'] : []),
      ...(spec.grants.secretsKey ?? []),
      ...(spec.grants.signingKeys ?? []),
      ...(spec.grants.exportsBucket ?? []),
    ].sort();

    // Act
    const { statements, managedPolicies } = roleStatements(synth, name);

    // Assess
    expect(managedPolicies).toEqual([]);
    expect(statements.flatMap(actionsOf).sort()).toEqual(expected);
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      // kms:CreateKey names no resource: its statement is conditioned on the key's tags instead (test/infra/signing-keys.test.ts).
      if (!actionsOf(statement).includes('kms:CreateKey')) expect(JSON.stringify(statement.Resource)).not.toContain('"*"');
      const actions = actionsOf(statement);
      const streamActions: readonly string[] = STREAM_CONSUMER_ACTIONS;
      if (actions.some((a) => streamActions.includes(a))) expect(statement.Resource).toEqual({ 'Fn::GetAtt': [tableId, 'StreamArn'] });
      // The table and its one index (lib/data/table.ts: events by type).
      else if (actions.some((a) => a.startsWith('dynamodb:'))) expect(statement.Resource).toEqual([arnOf(tableId), { 'Fn::Join': ['', [arnOf(tableId), `/index/${GSI1.name}`]] }]);
      if (actions.some((a) => a.startsWith('sqs:'))) {
        // The stream failure queue only for what the mapping sends there (the fan-out's set-aside records).
        const failureQueue = synth.stack.eventStreamFailureQueue && statement.Sid === 'StreamFailureQueue' ? [arnOf(logicalId(synth.stack.eventStreamFailureQueue))] : [];
        expect([arnOf(queueId), arnOf(logicalId(synth.stack.importQueue)), arnOf(logicalId(synth.stack.eventDeliveryQueue)), arnOf(logicalId(synth.stack.registryOutboxQueue)), ...failureQueue]).toContainEqual(statement.Resource);
      }
      if (actions.some((a) => a.startsWith('secretsmanager:'))) expect(statement.Resource).toEqual(ref(secretId));
      // The signing keys' statements (Sid SigningKeys…) are checked in test/infra/signing-keys.test.ts.
      if (actions.some((a) => a.startsWith('kms:')) && !statement.Sid?.startsWith('SigningKeys')) expect(statement.Resource).toEqual(arnOf(logicalId(synth.stack.secretsKey)));
    }
  });

  it.each(functions)('%s: gets the configuration lib/config.ts reads, and the session key only with the grant', (name, spec) => {
    // Act
    const variables = (synth.resources[functionLogicalId(synth, name)]?.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

    // Assess
    expect(variables.TABLE_NAME).toEqual(ref(logicalId(synth.stack.table)));
    expect(variables.SCAN_QUEUE_URL).toEqual(ref(logicalId(synth.stack.scanQueue)));
    expect(variables.IMPORT_QUEUE_URL).toEqual(ref(logicalId(synth.stack.importQueue)));
    // The function behind the distribution cannot name it (a cycle): CloudFront's viewer-request function tells it instead.
    if (spec.functionUrl) expect(variables.RESOLVER_ORIGIN).toBeUndefined();
    else expect(JSON.stringify(variables.RESOLVER_ORIGIN)).toContain(logicalId(synth.stack.distribution));
    expect(variables.RESOLVER_ORIGIN_SECRET).toBeUndefined();
    expect(variables.POWERTOOLS_LOG_LEVEL).toBeUndefined();
    expect(JSON.stringify(variables.OIDC_ISSUER)).toContain(logicalId(synth.stack.userPool));
    expect(variables.OIDC_CLIENT_ID).toBeDefined();
    expect(JSON.stringify(variables.OIDC_REDIRECT_URI)).toContain('/v1/auth/callback');
    expect(variables.PUBLIC_API_ORIGIN).toBeDefined();
    expect(variables.POWERTOOLS_SERVICE_NAME).toBe('product-passport');
    expect(variables.DYNAMODB_ENDPOINT).toBeUndefined();
    // Stack traces mapped to the sources, except on the scan path (docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk).
    expect(variables.NODE_OPTIONS).toBe(name === 'resolver' ? undefined : '--enable-source-maps');
    if (readsSessionSecret(name, spec)) expect(variables.SESSION_SECRET_ARN).toEqual(ref(logicalId(synth.stack.sessionSecret)));
    else expect(variables.SESSION_SECRET_ARN).toBeUndefined();
  });

  it.each(functions)('%s: logs JSON with advanced logging controls: no platform lines below WARN, application lines from its level', (name, spec) => {
    // Act
    const config = synth.resources[functionLogicalId(synth, name)]?.Properties?.LoggingConfig as Record<string, unknown>;

    // Assess
    expect(config).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: spec.logLevel ?? DEFAULT_LOG_LEVEL });
  });

  it('keeps the scan path at WARN: the resolver writes no application line for a served scan', () => {
    // Act
    const config = synth.resources[functionLogicalId(synth, 'resolver')]?.Properties?.LoggingConfig as Record<string, unknown>;

    // Assess
    expect(config.ApplicationLogLevel).toBe('WARN');
    expect(config.SystemLogLevel).toBe('WARN');
  });

  it('gives every function its own log group with a retention period', () => {
    for (const [name] of functions) {
      // Act
      const config = synth.resources[functionLogicalId(synth, name)]?.Properties?.LoggingConfig as { LogGroup: { Ref: string } };
      const logGroup = synth.resources[config.LogGroup.Ref];

      // Assess
      expect(logGroup?.Type, name).toBe('AWS::Logs::LogGroup');
      expect(logGroup?.Properties?.RetentionInDays, name).toBe(30);
    }
  });
});

describe('table', () => {
  it('is on-demand, with point-in-time recovery, deletion protection and the TTL attribute, keyed as the local table', () => {
    // Prepare
    const local = createTableInput('x');

    // Act
    const table = single(synth, 'AWS::DynamoDB::Table');

    // Assess
    expect(table).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      KeySchema: local.KeySchema,
    });
    expect(table.AttributeDefinitions).toEqual(expect.arrayContaining(local.AttributeDefinitions ?? []));
    expect(table.GlobalSecondaryIndexes).toEqual(local.GlobalSecondaryIndexes);
    synth.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('scan queue', () => {
  const consumers = functions.filter(([, spec]) => spec.trigger?.queue === 'scan');

  it('sends messages to the DLQ after 5 receives and outlasts six times each consumer\'s timeout', () => {
    // Prepare
    const queueId = logicalId(synth.stack.scanQueue);
    const dlqId = logicalId(synth.stack.deadLetterQueue);

    // Act
    const queue = synth.resources[queueId]?.Properties as { RedrivePolicy: unknown; VisibilityTimeout: number };

    // Assess
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf(dlqId), maxReceiveCount: 5 });
    for (const [, spec] of consumers) expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * spec.timeoutSeconds);
  });

  it('maps the queue to every function with a scan trigger, reporting batch item failures', () => {
    // Prepare
    const queueArn = arnOf(logicalId(synth.stack.scanQueue));

    // Act
    const mappings = ofType(synth, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(queueArn));

    // Assess
    expect(mappings).toHaveLength(consumers.length);
    for (const [name, spec] of consumers) {
      synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: ref(functionLogicalId(synth, name)),
        EventSourceArn: queueArn,
        BatchSize: spec.trigger?.batchSize,
        MaximumBatchingWindowInSeconds: spec.trigger?.maxBatchingWindowSeconds,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      expect(roleStatements(synth, name).statements.flatMap(actionsOf)).toEqual(expect.arrayContaining([...CONSUMER_ACTIONS]));
    }
  });

  it('encrypts both queues and refuses plain HTTP', () => {
    for (const queue of [synth.stack.scanQueue, synth.stack.deadLetterQueue]) {
      // Act
      const id = logicalId(queue);

      // Assess
      expect(synth.resources[id]?.Properties?.SqsManagedSseEnabled).toBe(true);
      synth.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [ref(id)],
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });
    }
  });
});

describe('import queue', () => {
  const consumers = functions.filter(([, spec]) => spec.trigger?.queue === 'import');

  it('has the import worker as its consumer, and only the imports function may send to it', () => {
    // Act
    const senders = functions.filter(([, spec]) => spec.grants.importQueue?.includes('sqs:SendMessage')).map(([name]) => name);

    // Assess
    expect(consumers.map(([name]) => name)).toEqual(['import-worker']);
    expect(senders).toEqual(['imports']);
  });

  it('sends messages to its own DLQ after 5 receives and outlasts six times the worker\'s timeout', () => {
    // Prepare
    const queueId = logicalId(synth.stack.importQueue);
    const dlqId = logicalId(synth.stack.importDeadLetterQueue);

    // Act
    const queue = synth.resources[queueId]?.Properties as { RedrivePolicy: unknown; VisibilityTimeout: number };

    // Assess
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf(dlqId), maxReceiveCount: 5 });
    for (const [, spec] of consumers) expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * spec.timeoutSeconds);
  });

  it('maps the queue to the worker with its batch size, reporting batch item failures; the worker may receive, the imports function only send', () => {
    // Prepare
    const queueArn = arnOf(logicalId(synth.stack.importQueue));

    // Act
    const mappings = ofType(synth, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(queueArn));

    // Assess
    expect(mappings).toHaveLength(consumers.length);
    for (const [name, spec] of consumers) {
      synth.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: ref(functionLogicalId(synth, name)),
        EventSourceArn: queueArn,
        BatchSize: spec.trigger?.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      const importStatements = roleStatements(synth, name).statements.filter((st) => JSON.stringify(st.Resource) === JSON.stringify(queueArn));
      expect(importStatements.flatMap(actionsOf).sort()).toEqual([...CONSUMER_ACTIONS].sort());
    }
    const senderStatements = roleStatements(synth, 'imports').statements.filter((st) => JSON.stringify(st.Resource) === JSON.stringify(queueArn));
    expect(senderStatements.flatMap(actionsOf)).toEqual(['sqs:SendMessage']);
  });

  it('encrypts both queues and refuses plain HTTP', () => {
    for (const queue of [synth.stack.importQueue, synth.stack.importDeadLetterQueue]) {
      // Act
      const id = logicalId(queue);

      // Assess
      expect(synth.resources[id]?.Properties?.SqsManagedSseEnabled).toBe(true);
      synth.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [ref(id)],
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });
    }
  });
});

describe('outbound webhooks (docs/webhooks-outbound.md)', () => {
  it('streams the table’s new images, and maps the stream to the fan-out, filtered to new event-log items, and to scan-spill, filtered to new spilled scans', () => {
    // Prepare
    const tableId = logicalId(synth.stack.table);
    const streamArn = { 'Fn::GetAtt': [tableId, 'StreamArn'] };
    // Act
    const table = synth.resources[tableId]?.Properties as { StreamSpecification?: { StreamViewType: string } };
    // The backup function's own mapping is asserted in test/infra/backup.test.ts.
    const backupId = logicalId(synth.stack.backup.function);
    const mappings = ofType(synth, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(streamArn) && JSON.stringify(m.Properties?.FunctionName) !== JSON.stringify(ref(backupId)));
    // Assess
    expect(table.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(mappings).toHaveLength(3);
    // The registry outbox's feed takes registrations written or changed into a status the outbox works on (docs/registry.md#the-outbox).
    const feed = mappings.find(([, m]) => JSON.stringify(m.Properties?.FunctionName) === JSON.stringify(ref(functionLogicalId(synth, 'registry-outbox-feed'))))?.[1].Properties as Record<string, unknown>;
    expect(JSON.parse((feed.FilterCriteria as { Filters: { Pattern: string }[] }).Filters[0]?.Pattern ?? '{}')).toEqual({
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: { NewImage: { type: { S: ['registration'] }, status: { S: ['pending_checks', 'ready', 'submitted'] } } },
    });
    // And those whose item's life asks for a (de)activation (docs/registry.md#lifecycle).
    expect(JSON.parse((feed.FilterCriteria as { Filters: { Pattern: string }[] }).Filters[1]?.Pattern ?? '{}')).toEqual({
      eventName: ['INSERT', 'MODIFY'],
      dynamodb: { NewImage: { type: { S: ['registration'] }, deactivation: { S: [{ exists: true }] } } },
    });
    expect(feed.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    // The fan-out takes new event-log items; scan-spill the scans the resolver spilled while the queue failed (docs/decisions.md#scans-while-the-queue-is-down).
    for (const [fn, itemType] of [['event-fanout', 'event'], ['scan-spill', 'scanSpill']] as const) {
      const properties = mappings.find(([, m]) => JSON.stringify(m.Properties?.FunctionName) === JSON.stringify(ref(functionLogicalId(synth, fn))))?.[1].Properties as Record<string, unknown>;
      expect(properties.FunctionResponseTypes, fn).toEqual(['ReportBatchItemFailures']);
      expect(properties.StartingPosition, fn).toBe('TRIM_HORIZON');
      const [filter] = (properties.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
      expect(JSON.parse(filter?.Pattern ?? '{}'), fn).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: [itemType] } } } });
    }
    // Only they read the stream.
    const readers = functions.filter(([name]) => roleStatements(synth, name).statements.some((st) => JSON.stringify(st.Resource) === JSON.stringify(streamArn)));
    expect(readers.map(([name]) => name).sort()).toEqual(['event-fanout', 'registry-outbox-feed', 'scan-spill']);
  });

  it('splits a failing batch of the fan-out’s stream and sets a record that fails alone aside after its retries, reported to an alarmed failure queue only the fan-out sends to; scan-spill’s retries until the record expires', () => {
    // Prepare
    const streamArn = { 'Fn::GetAtt': [logicalId(synth.stack.table), 'StreamArn'] };
    const failureQueue = synth.stack.eventStreamFailureQueue;
    expect(failureQueue).toBeDefined();
    const failureArn = arnOf(logicalId(failureQueue!));
    const mappingOf = (fn: string) =>
      ofType(synth, 'AWS::Lambda::EventSourceMapping').find(
        ([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(streamArn) && JSON.stringify(m.Properties?.FunctionName) === JSON.stringify(ref(functionLogicalId(synth, fn))),
      )?.[1].Properties as Record<string, any>;
    // Act
    const fanOut = mappingOf('event-fanout');
    const spill = mappingOf('scan-spill');
    const queue = synth.resources[logicalId(failureQueue!)]?.Properties as Record<string, unknown>;
    const queueName = { 'Fn::GetAtt': [logicalId(failureQueue!), 'QueueName'] };
    const alarms = ofType(synth, 'AWS::CloudWatch::Alarm').filter(([, a]) => JSON.stringify(a.Properties?.Dimensions ?? '').includes(JSON.stringify(queueName)));
    const senders = functions.filter(([name]) => roleStatements(synth, name).statements.some((st) => JSON.stringify(st.Resource) === JSON.stringify(failureArn))).map(([name]) => name);
    // Assess
    expect(fanOut).toMatchObject({ BisectBatchOnFunctionError: true, FunctionResponseTypes: ['ReportBatchItemFailures'], MaximumRetryAttempts: 10 });
    expect(fanOut.DestinationConfig).toEqual({ OnFailure: { Destination: failureArn } });
    expect(spill.BisectBatchOnFunctionError).toBe(true);
    expect(spill.MaximumRetryAttempts).toBeUndefined();
    expect(spill.DestinationConfig).toBeUndefined();
    expect(queue).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.[1].Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(alarms[0]?.[1].Properties?.AlarmActions).toHaveLength(1);
    expect(senders).toEqual(['event-fanout']);
    expect(roleStatements(synth, 'event-fanout').statements.filter((st) => JSON.stringify(st.Resource) === JSON.stringify(failureArn)).flatMap(actionsOf)).toEqual(['sqs:SendMessage']);
  });

  it('has the delivery worker as the delivery queue’s consumer, its own DLQ after 5 receives, and only the fan-out, the worker and the subscriptions API may send', () => {
    // Prepare
    const queueArn = arnOf(logicalId(synth.stack.eventDeliveryQueue));
    const queue = synth.resources[logicalId(synth.stack.eventDeliveryQueue)]?.Properties as { RedrivePolicy: unknown; VisibilityTimeout: number };
    // Act
    const mappings = ofType(synth, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(queueArn));
    const senders = functions
      .filter(([name]) => roleStatements(synth, name).statements.some((st) => JSON.stringify(st.Resource) === JSON.stringify(queueArn) && actionsOf(st).includes('sqs:SendMessage')))
      .map(([name]) => name)
      .sort();
    // Assess
    expect(mappings.map(([, m]) => m.Properties?.FunctionName)).toEqual([ref(functionLogicalId(synth, 'event-delivery'))]);
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf(logicalId(synth.stack.eventDeliveryDeadLetterQueue)), maxReceiveCount: 5 });
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * FUNCTIONS['event-delivery'].timeoutSeconds);
    expect(senders).toEqual(['event-delivery', 'event-fanout', 'event-subscriptions']);
  });

  it('never lets a function in AWS post to loopback (EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK is a local stack’s flag), and keeps the worker out of a VPC', () => {
    for (const [name] of functions) {
      // Act
      const fn = synth.resources[functionLogicalId(synth, name)]?.Properties as { Environment: { Variables: Record<string, unknown> }; VpcConfig?: unknown };
      // Assess
      expect(fn.Environment.Variables.EVENT_SUBSCRIPTIONS_ALLOW_LOOPBACK, name).toBeUndefined();
      expect(fn.Environment.Variables.EVENT_RETRY_SCHEDULE_SECONDS, name).toBeUndefined();
      expect(fn.Environment.Variables.EVENT_DELIVERY_QUEUE_URL, name).toEqual(ref(logicalId(synth.stack.eventDeliveryQueue)));
      if (name === 'event-delivery') expect(fn.VpcConfig).toBeUndefined();
    }
  });
});

describe('the registry outbox (docs/registry.md#the-outbox)', () => {
  it('has the worker as the outbox queue’s consumer with batch item failures, its own alarmed DLQ after 20 receives, and only the feed and the worker may send', () => {
    // Prepare
    const queueArn = arnOf(logicalId(synth.stack.registryOutboxQueue));
    const queue = synth.resources[logicalId(synth.stack.registryOutboxQueue)]?.Properties as { RedrivePolicy: unknown; VisibilityTimeout: number };
    // Act
    const mappings = ofType(synth, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => JSON.stringify(m.Properties?.EventSourceArn) === JSON.stringify(queueArn));
    const senders = functions
      .filter(([name]) => roleStatements(synth, name).statements.some((st) => JSON.stringify(st.Resource) === JSON.stringify(queueArn) && actionsOf(st).includes('sqs:SendMessage')))
      .map(([name]) => name)
      .sort();
    const alarms = ofType(synth, 'AWS::CloudWatch::Alarm').filter(([, a]) => JSON.stringify(a.Properties?.Dimensions ?? '').includes(logicalId(synth.stack.registryOutboxDeadLetterQueue)));
    // Assess
    expect(mappings.map(([, m]) => [m.Properties?.FunctionName, m.Properties?.FunctionResponseTypes])).toEqual([[ref(functionLogicalId(synth, 'registry-outbox')), ['ReportBatchItemFailures']]]);
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: arnOf(logicalId(synth.stack.registryOutboxDeadLetterQueue)), maxReceiveCount: 20 });
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * FUNCTIONS['registry-outbox'].timeoutSeconds);
    expect(senders).toEqual(['registry-outbox', 'registry-outbox-feed']);
    expect(alarms).toHaveLength(1);
  });
});

describe('resolver distribution', () => {
  it('forwards the viewer country, the negotiation headers and the viewer-request function\'s two headers to the resolver\'s function URL, and caches nothing', () => {
    // Prepare
    const config = single(synth, 'AWS::CloudFront::Distribution').DistributionConfig as Record<string, unknown>;
    const behavior = config.DefaultCacheBehavior as Record<string, unknown>;
    const policyId = (behavior.OriginRequestPolicyId as { Ref: string }).Ref;

    // Act
    const policy = synth.resources[policyId]?.Properties?.OriginRequestPolicyConfig as { HeadersConfig: { Headers: string[] } };

    // Assess
    expect([...policy.HeadersConfig.Headers].sort()).toEqual([...RESOLVER_HEADERS].sort());
    expect(policy.HeadersConfig.Headers.map((h) => h.toLowerCase())).not.toContain('host');
    expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // Managed-CachingDisabled
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    const origins = config.Origins as { Id: string }[];
    const target = origins.find((o) => o.Id === behavior.TargetOriginId);
    expect(JSON.stringify(target)).toContain(logicalId(synth.stack.functions.resolver!.node.findChild('FunctionUrl') as never));
    expect(JSON.stringify(target)).not.toContain(logicalId(synth.stack.api));
  });

  it('sends the credential documents (and nothing else) to the HTTP API, before the pages they sit beside, cached as they say (docs/credentials.md)', () => {
    // Prepare
    const config = single(synth, 'AWS::CloudFront::Distribution').DistributionConfig as Record<string, unknown>;
    const behaviors = config.CacheBehaviors as Record<string, unknown>[];
    const origins = config.Origins as { Id: string }[];
    const toApi = behaviors.filter((b) => JSON.stringify(origins.find((o) => o.Id === primaryOriginId(config, b.TargetOriginId as string))).includes(logicalId(synth.stack.api)));
    const patterns = behaviors.map((b) => b.PathPattern as string);
    const first = (path: string) => patterns.find((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`).test(path));
    const org = 'org_0123456789abcdef';

    // Act / Assess
    expect(toApi.map((b) => b.PathPattern).sort()).toEqual([...CREDENTIAL_PATH_PATTERNS].sort());
    expect(first(`/${org}/live/p/04006381333931/3/credential.jwt`)).toBe('/org_????????????????/live/p/*/credential.jwt');
    expect(first(`/${org}/live/p/04006381333931/3/de`)).toBe('/org_????????????????/live/p/*');
    for (const behavior of toApi) expect(behavior).toMatchObject({ AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'redirect-to-https' });
  });

  it('sets X-Forwarded-Host and X-Resolver-Origin on every resolver request with a viewer-request function, overwriting what the viewer sent', () => {
    // Prepare
    const config = single(synth, 'AWS::CloudFront::Distribution').DistributionConfig as Record<string, unknown>;
    const associations = (config.DefaultCacheBehavior as { FunctionAssociations: { EventType: string; FunctionARN: { 'Fn::GetAtt': [string] } }[] }).FunctionAssociations;
    const fn = synth.resources[associations[0]!.FunctionARN['Fn::GetAtt'][0]]?.Properties as { FunctionCode: string; FunctionConfig: { Runtime: string } };
    // The code as CloudFront runs it: a viewer request with forged headers.
    const run = new Function('event', `${fn.FunctionCode}\nreturn handler(event);`) as (event: unknown) => { headers: Record<string, { value: string }> };

    // Act
    const request = run({
      context: { distributionDomainName: 'd111111abcdef8.cloudfront.net' },
      request: { headers: { host: { value: 'd111111abcdef8.cloudfront.net' }, 'x-forwarded-host': { value: 'evil.example' }, 'x-resolver-origin': { value: 'https://evil.example' } } },
    });

    // Assess
    expect(associations).toHaveLength(1);
    expect(associations[0]?.EventType).toBe('viewer-request');
    expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(fn.FunctionCode).toBe(viewerRequestCode());
    expect(request.headers['x-forwarded-host']).toEqual({ value: 'd111111abcdef8.cloudfront.net' });
    expect(request.headers['x-resolver-origin']).toEqual({ value: 'https://d111111abcdef8.cloudfront.net' });
  });

  it('attack: with a custom resolver domain (no viewer-request function) a viewer\'s X-Resolver-Origin and X-Forwarded-Host never reach the resolver', () => {
    // Prepare
    const custom = synthesize({ settings: { ...DEFAULT_SETTINGS, resolverDomain: 'id.example.com', resolverCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc-1' } });
    const config = single(custom, 'AWS::CloudFront::Distribution').DistributionConfig as Record<string, unknown>;
    const behavior = config.DefaultCacheBehavior as Record<string, unknown>;

    // Act
    const policy = custom.resources[(behavior.OriginRequestPolicyId as { Ref: string }).Ref]?.Properties?.OriginRequestPolicyConfig as { HeadersConfig: { Headers: string[] } };

    // Assess
    expect(behavior.FunctionAssociations).toBeUndefined();
    expect([...policy.HeadersConfig.Headers].sort()).toEqual(['Accept', 'Accept-Language', 'CloudFront-Viewer-Country', 'Referer', 'User-Agent']);
    expect(policy.HeadersConfig.Headers.map((h) => h.toLowerCase())).not.toContain('x-resolver-origin');
    expect(policy.HeadersConfig.Headers.map((h) => h.toLowerCase())).not.toContain('x-forwarded-host');
    expect(policy.HeadersConfig.Headers).toContain('CloudFront-Viewer-Country');
  });

  it('caches the immutable version pages as long as they say, compressed, keyed by the path alone; nothing else', () => {
    // Prepare
    const config = single(synth, 'AWS::CloudFront::Distribution').DistributionConfig as Record<string, unknown>;
    const behaviors = (config.CacheBehaviors as Record<string, unknown>[]).filter((b) => !(CREDENTIAL_PATH_PATTERNS as readonly unknown[]).includes(b.PathPattern) && b.PathPattern !== BACKUP_PATH_PATTERN);
    const policyId = (behaviors[0]?.CachePolicyId as { Ref: string }).Ref;

    // Act
    const policy = synth.resources[policyId]?.Properties?.CachePolicyConfig as Record<string, any>;

    // Assess
    expect(behaviors.map((b) => b.PathPattern).sort()).toEqual([...PAGE_PATH_PATTERNS].sort());
    for (const behavior of behaviors) {
      expect(behavior).toMatchObject({ Compress: true, AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'redirect-to-https', CachePolicyId: { Ref: policyId } });
      // The resolver's function URL first, the backup copy when it fails (docs/backup.md#failover).
      expect(JSON.stringify(originOf(config, primaryOriginId(config, behavior.TargetOriginId as string)))).toBe(JSON.stringify({ ...originOf(config, (config.DefaultCacheBehavior as { TargetOriginId: string }).TargetOriginId), Id: primaryOriginId(config, behavior.TargetOriginId as string) }));
    }
    expect(policy).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: 31_536_000 });
    expect(policy.ParametersInCacheKeyAndForwardedToOrigin).toMatchObject({
      EnableAcceptEncodingGzip: true,
      EnableAcceptEncodingBrotli: true,
      HeadersConfig: { HeaderBehavior: 'none' },
      CookiesConfig: { CookieBehavior: 'none' },
      QueryStringsConfig: { QueryStringBehavior: 'none' },
    });
  });

  it('sends every page URL to the cached behaviour and no Digital Link (platform or brand host, any qualifier value) there', () => {
    // Prepare: CloudFront path patterns: * is any run of characters (slashes too), ? one character.
    const patterns = PAGE_PATH_PATTERNS.map((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`));
    const cached = (path: string) => patterns.some((pattern) => pattern.test(path));
    const org = 'org_0123456789abcdef';

    // Act / Assess
    expect(cached(new URL(elabelPageUrl('https://id.example.com', { orgId: org, environment: 'live' }, '04006381333931', 3, 'de')).pathname)).toBe(true);
    expect(cached(new URL(passportJsonUrl('https://id.example.com', { orgId: org, environment: 'test' }, '04006381333931', 12)).pathname)).toBe(true);
    for (const path of [
      `/${org}/live/01/04006381333931`,
      `/${org}/live/01/04006381333931/22/p/21/S1`,
      `/${org}/live/01/04006381333931/10/p/21/p`,
      '/01/04006381333931/22/p/10/LOT1',
      `/01/04006381333931/21/${org}/live/p/x`,
      '/.well-known/gs1resolver',
    ]) {
      expect(cached(path), path).toBe(false);
    }
  });

  it('attack: nothing but the distribution can reach the resolver: its function URL takes only SigV4-signed requests (AWS_IAM), which origin access control signs for this distribution alone', () => {
    // Prepare
    const resolverId = functionLogicalId(synth, 'resolver');
    const config = single(synth, 'AWS::CloudFront::Distribution').DistributionConfig as { Origins: { OriginAccessControlId?: { 'Fn::GetAtt': [string] } }[] };
    const distributionId = logicalId(synth.stack.distribution);

    // Act
    const urls = ofType(synth, 'AWS::Lambda::Url');
    const signed = config.Origins.filter((o) => o.OriginAccessControlId);
    const oac = synth.resources[signed[0]!.OriginAccessControlId!['Fn::GetAtt'][0]]?.Properties?.OriginAccessControlConfig;
    const [urlId] = urls[0] ?? [''];
    const permissions = ofType(synth, 'AWS::Lambda::Permission')
      .map(([, p]) => p.Properties ?? {})
      .filter((p) => JSON.stringify(p.FunctionName).includes(resolverId) || JSON.stringify(p.FunctionName).includes(urlId));

    // Assess
    expect(urls).toHaveLength(1);
    expect(urls[0]?.[1].Properties).toMatchObject({ AuthType: 'AWS_IAM', TargetFunctionArn: arnOf(resolverId) });
    // Four origins: the resolver's function URL, signed (alone for the Digital Links, and as the
    // version pages' primary); the HTTP API for the credential documents; the backup copy's bucket, signed.
    expect(config.Origins).toHaveLength(4);
    expect(signed).toHaveLength(3);
    expect(oac).toMatchObject({ OriginAccessControlOriginType: 'lambda', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
    // One pair for each time the distribution binds the function URL as an origin (alone, and in the pages' origin group).
    expect(permissions.map((p) => p.Action).sort()).toEqual(['lambda:InvokeFunction', 'lambda:InvokeFunction', 'lambda:InvokeFunctionUrl', 'lambda:InvokeFunctionUrl']);
    for (const permission of permissions) {
      expect(permission.Principal).toBe('cloudfront.amazonaws.com');
      expect(JSON.stringify(permission.SourceArn)).toContain(distributionId);
    }
    // No shared origin secret any more: OAC replaces it (docs/decisions.md).
    expect(ofType(synth, 'AWS::SecretsManager::Secret').filter(([, r]) => JSON.stringify(r.Properties).includes('resolver'))).toEqual([]);
  });
});

describe('sign-in', () => {
  it('has a public authorization-code client whose callback is the API\'s /v1/auth/callback', () => {
    // Act
    const client = single(synth, 'AWS::Cognito::UserPoolClient');

    // Assess
    expect(client).toMatchObject({ AllowedOAuthFlows: ['code'], GenerateSecret: false });
    expect(JSON.stringify(client.CallbackURLs)).toContain('/v1/auth/callback');
    synth.template.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    synth.template.hasResourceProperties('AWS::Cognito::UserPool', { MfaConfiguration: 'ON', DeletionProtection: 'ACTIVE' });
  });
});

describe('session key', () => {
  it('is generated in the form the session code decodes: base64 text of 32 bytes', () => {
    // Prepare
    const generate = synth.resources[logicalId(synth.stack.sessionSecret)]?.Properties?.GenerateSecretString as Record<string, unknown>;
    const sample = 'aZ09'.repeat(11).slice(0, Number(generate.PasswordLength));

    // Act
    const key = decodeSessionSecret(sample);

    // Assess
    expect(generate).toMatchObject({ ExcludePunctuation: true, IncludeSpace: false });
    expect(key).toHaveLength(32);
  });
});

describe('alarms', () => {
  it('alarm on the DLQs\' depth (scans, import chunks), the API 5xx rate and every function\'s throttles, notifying the alarm topic', () => {
    // Prepare
    const alarms = ofType(synth, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties ?? {});
    const dlqName = { 'Fn::GetAtt': [logicalId(synth.stack.deadLetterQueue), 'QueueName'] };

    // Act
    const dlq = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions).includes(JSON.stringify(dlqName)));
    const throttles = alarms.filter((a) => a.MetricName === 'Throttles');
    const fiveXx = alarms.filter((a) => JSON.stringify(a.Metrics ?? []).includes('5xx'));

    // Assess
    expect(dlq).toHaveLength(1);
    expect(dlq[0]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    const importDlqName = { 'Fn::GetAtt': [logicalId(synth.stack.importDeadLetterQueue), 'QueueName'] };
    const importDlq = alarms.filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions).includes(JSON.stringify(importDlqName)));
    expect(importDlq).toHaveLength(1);
    expect(importDlq[0]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(fiveXx).toHaveLength(1);
    expect(throttles).toHaveLength(functions.length);
    for (const alarm of alarms) expect(alarm.AlarmActions).toHaveLength(1);
  });

  it('alarm on each HTTP function\'s 503 rate, counted from its own log by a metric filter on errorType service_unavailable (docs/api.md#when-a-dependency-is-down)', () => {
    // Prepare
    const httpFunctions = [...new Set(ROUTES.map((route) => route.function))].sort();
    const filters = ofType(synth, 'AWS::Logs::MetricFilter').map(([, f]) => f.Properties ?? {});
    const alarms = ofType(synth, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties ?? {});
    // Act
    const unavailable = filters.filter((f) => JSON.stringify(f).includes('service_unavailable'));
    const rateAlarms = alarms.filter((a) => JSON.stringify(a.Metrics ?? []).includes('ProductPassport/ServiceUnavailable'));
    // Assess
    expect(unavailable.map((f) => (f.MetricTransformations as { MetricName: string }[])[0]?.MetricName).sort()).toEqual(httpFunctions);
    for (const filter of unavailable) {
      expect(filter.FilterPattern).toBe('{ $.errorType = "service_unavailable" }');
      expect(filter.LogGroupName).toBeDefined();
    }
    expect(rateAlarms).toHaveLength(httpFunctions.length);
    for (const alarm of rateAlarms) {
      expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
      expect(JSON.stringify(alarm.Metrics)).toContain('Invocations');
    }
    expect(httpFunctions).toContain('resolver');
    expect(httpFunctions).toContain('health');
  });
});

describe('cdk-nag', () => {
  it('reports no unacknowledged AwsSolutions finding', () => {
    // Act
    const report = new AwsSolutionsChecks(synth.app).validateScope(synth.stack);

    // Assess
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('gives every acknowledged rule a specific reason', () => {
    // Act
    const acknowledged = acknowledgements(synth.stack);

    // Assess
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const { path, id, reason } of acknowledged) {
      // A finding may be acknowledged for one resource only: `AwsSolutions-IAM5[Resource::…]`.
      expect(id, path).toMatch(/^(Annotation::)?AwsSolutions-[A-Z]+\d+(\[Resource::[^\]]+\])?$/);
      expect(reason.length, `${id} on ${path}`).toBeGreaterThan(60);
    }
  });
});
