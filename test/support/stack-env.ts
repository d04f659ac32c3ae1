import { inject } from 'vitest';

// Point this test worker's data layer at the suite's stack, for setting up organizations and keys.
const stack = inject('stack');
Object.assign(process.env, {
  AWS_REGION: stack.region,
  TABLE_NAME: stack.tableName,
  DYNAMODB_ENDPOINT: stack.dynamodbEndpoint,
  SQS_ENDPOINT: stack.sqsEndpoint,
  SCAN_QUEUE_URL: stack.scanQueueUrl,
  RESOLVER_ORIGIN: stack.resolverOrigin,
  PUBLIC_API_ORIGIN: stack.url,
  OIDC_ISSUER: stack.oidcIssuer,
  OIDC_CLIENT_ID: stack.oidcClientId,
  SESSION_SECRET: stack.sessionSecret,
  SECRETS_KEY: stack.secretsKey,
});
