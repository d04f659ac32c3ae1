import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../infra/functions.ts';
import { DEFAULT_SETTINGS, settingsFromContext } from '../../infra/cdk/settings.ts';
import { functionLogicalId, roleStatements, synthesize, type Synthesized } from './template.ts';

/**
 * The EU registry's API in a deployment (docs/registry.md#the-outbox, docs/deploy.md#context-values):
 * the context values `registry` and `registryAcceptance` reach the outbox worker as REGISTRY_* and
 * REGISTRY_ACCEPTANCE_*, the client secrets stay in Secrets Manager, and only that worker may read them.
 */
const PRODUCTION = {
  baseUrl: 'https://registry.example.eu/api',
  tokenUrl: 'https://login.example.eu/oauth2/token',
  clientId: 'passport-service',
  clientSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:registry-production-AbCdEf',
};
const ACCEPTANCE = { ...PRODUCTION, baseUrl: 'https://acceptance.registry.example.eu/api', clientSecretArn: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:registry-acceptance-GhIjKl' };
const appWith = (context: Record<string, unknown>) => new App({ context });

describe('the registry settings from context', () => {
  it('reads the production and the acceptance registry, as JSON or as an object', () => {
    // Act
    const settings = settingsFromContext(appWith({ registry: JSON.stringify(PRODUCTION), registryAcceptance: ACCEPTANCE }).node);

    // Assess
    expect(settings.registry).toEqual({ production: PRODUCTION, acceptance: ACCEPTANCE });
  });

  it.each([
    [{ registry: { ...PRODUCTION, baseUrl: 'http://registry.example.eu' } }, /registry.baseUrl must be an https URL/],
    [{ registryAcceptance: { ...ACCEPTANCE, clientSecretArn: 'registry-secret' } }, /registryAcceptance.clientSecretArn must be a Secrets Manager secret ARN/],
    [{ registry: { ...PRODUCTION, clientId: '' } }, /registry needs clientId/],
    [{ registry: '{not json' }, /must be a JSON object/],
  ])('refuses %j', (context, message) => {
    // Act
    const read = () => settingsFromContext(appWith(context).node);

    // Assess
    expect(read).toThrow(message);
  });
});

describe('the registry in the stack', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize({ settings: { ...DEFAULT_SETTINGS, registry: { production: PRODUCTION, acceptance: ACCEPTANCE } } });
  });

  it('gives the outbox worker both registries, the secrets by their ARNs only', () => {
    // Act
    const variables = (synth.resources[functionLogicalId(synth, 'registry-outbox')]?.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

    // Assess
    expect(variables).toMatchObject({
      REGISTRY_BASE_URL: PRODUCTION.baseUrl,
      REGISTRY_TOKEN_URL: PRODUCTION.tokenUrl,
      REGISTRY_CLIENT_ID: PRODUCTION.clientId,
      REGISTRY_CLIENT_SECRET_ARN: PRODUCTION.clientSecretArn,
      REGISTRY_ACCEPTANCE_BASE_URL: ACCEPTANCE.baseUrl,
      REGISTRY_ACCEPTANCE_CLIENT_SECRET_ARN: ACCEPTANCE.clientSecretArn,
    });
    expect(variables.REGISTRY_CLIENT_SECRET).toBeUndefined();
  });

  it('puts the proof renewal sweep on the outbox queue once a day, and lets only EventBridge send it there', () => {
    // Act
    const rules = Object.values(synth.resources).filter((r) => r.Type === 'AWS::Events::Rule');
    const policies = Object.values(synth.resources).filter((r) => r.Type === 'AWS::SQS::QueuePolicy');

    // Assess
    const sweep = rules.find((r) => JSON.stringify(r.Properties).includes('proof-renewals'));
    expect(sweep?.Properties).toMatchObject({ ScheduleExpression: 'rate(1 day)', State: 'ENABLED' });
    const target = (sweep?.Properties?.Targets as { Arn: unknown; Input: string }[])[0];
    expect(JSON.parse(target?.Input ?? '{}')).toEqual({ kind: 'proof-renewals' });
    expect(JSON.stringify(target?.Arn)).toContain('RegistryOutboxQueue');
    const sends = policies.flatMap((p) => (p.Properties?.PolicyDocument as { Statement: { Principal?: unknown; Action: unknown }[] }).Statement).filter((s) => JSON.stringify(s.Action).includes('sqs:SendMessage'));
    expect(sends.some((s) => JSON.stringify(s.Principal).includes('events.amazonaws.com'))).toBe(true);
  });

  it('attack: only the functions whose grants say registry may read the registry client secrets, and nothing else with that grant', () => {
    for (const name of Object.keys(FUNCTIONS)) {
      // Act
      const statements = roleStatements(synth, name).statements.filter((s) => JSON.stringify(s.Resource).includes('secret:registry-'));
      const variables = (synth.resources[functionLogicalId(synth, name)]?.Properties?.Environment as { Variables: Record<string, unknown> }).Variables;

      // Assess
      if (FUNCTIONS[name as keyof typeof FUNCTIONS].grants.registry) {
        expect(statements, name).toEqual([{ Sid: 'RegistryClientSecret', Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: [PRODUCTION.clientSecretArn, ACCEPTANCE.clientSecretArn] }]);
      } else {
        expect(statements, name).toEqual([]);
        expect(variables.REGISTRY_BASE_URL, name).toBeUndefined();
      }
    }
  });
});
