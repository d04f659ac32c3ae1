import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../infra/functions.ts';
import { roleStatements, synthesize, type Synthesized } from './template.ts';

/** docs/credentials.md#keys: the organizations' credential signing keys, and who may create and use them. */
let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const signingStatements = (name: string) => roleStatements(synth, name).statements.filter((s) => String(s.Sid ?? '').startsWith('SigningKeys'));

describe('the credential signing keys', () => {
  // The registry outbox seals each request to the EU registry with the organization's key (docs/registry.md#the-outbox), made on first use as the credentials' is.
  const SIGNERS = ['credentials', 'registry-outbox'];

  it('attack: only the credentials function and the registry outbox may create, sign with or read signing keys, and only this service’s tagged P-256 keys', () => {
    // Act
    const byFunction = Object.fromEntries(Object.keys(FUNCTIONS).map((name) => [name, signingStatements(name)]));
    // Assess
    expect(byFunction.credentials).toEqual([
      {
        Sid: 'SigningKeysCreate',
        Effect: 'Allow',
        Action: ['kms:CreateKey', 'kms:TagResource'],
        Resource: '*',
        Condition: {
          StringEquals: {
            'aws:RequestTag/service': 'product-passport',
            'aws:RequestTag/purpose': 'credential-signing',
            'kms:KeySpec': 'ECC_NIST_P256',
            'kms:KeyUsage': 'SIGN_VERIFY',
          },
          'ForAllValues:StringEquals': { 'aws:TagKeys': ['service', 'purpose', 'orgId'] },
        },
      },
      {
        Sid: 'SigningKeysUse',
        Effect: 'Allow',
        Action: ['kms:Sign', 'kms:GetPublicKey'],
        Resource: expect.objectContaining({ 'Fn::Join': expect.any(Array) }),
        Condition: { StringEquals: { 'aws:ResourceTag/service': 'product-passport', 'aws:ResourceTag/purpose': 'credential-signing' } },
      },
    ]);
    expect(JSON.stringify(byFunction.credentials?.[1]?.Resource)).toMatch(/:kms:.*:key\/\*/);
    expect(byFunction['registry-outbox']).toEqual(byFunction.credentials);
    for (const [name, statements] of Object.entries(byFunction)) if (!SIGNERS.includes(name)) expect(statements, name).toEqual([]);
  });

  it('attack: no function but credentials and the registry outbox holds any KMS action beyond the secrets key’s', () => {
    // Act
    const kmsActions = Object.fromEntries(
      Object.keys(FUNCTIONS).map((name) => [
        name,
        roleStatements(synth, name)
          .statements.filter((s) => s.Sid !== 'SecretsKey')
          .flatMap((s) => [s.Action].flat().map(String))
          .filter((a) => a.startsWith('kms:')),
      ]),
    );
    // Assess
    for (const [name, actions] of Object.entries(kmsActions)) {
      expect(actions, name).toEqual(SIGNERS.includes(name) ? ['kms:CreateKey', 'kms:TagResource', 'kms:Sign', 'kms:GetPublicKey'] : []);
    }
  });
});
