import { beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../infra/functions.ts';
import { KMS_ENCRYPTION_CONTEXT } from '../../lib/data/secret-box.ts';
import { functionLogicalId, logicalId, ofType, roleStatements, synthesize, type Synthesized } from './template.ts';

/** docs/security.md, finding 3: the KMS key sealing webhook secrets, and who may use it for what. */
let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

// The credential signing keys' statements are test/infra/signing-keys.test.ts's.
const kmsStatements = (name: string) =>
  roleStatements(synth, name).statements.filter((s) => [s.Action].flat().some((a) => String(a).startsWith('kms:')) && !String(s.Sid ?? '').startsWith('SigningKeys'));

/** The functions that use the secrets key: inbound webhook endpoints and outbound event subscriptions. */
const KEY_USERS = ['webhooks', 'ingest', 'event-subscriptions', 'event-delivery'];

describe('the secrets key', () => {
  it('is one customer-managed KMS key with automatic rotation, kept when the stack goes', () => {
    // Act: every key but the backup bucket's own (test/infra/backup.test.ts)
    const keys = ofType(synth, 'AWS::KMS::Key').filter(([id]) => id !== logicalId(synth.stack.backup.key!));
    // Assess
    expect(keys).toHaveLength(1);
    const [id, key] = keys[0]!;
    expect(id).toBe(logicalId(synth.stack.secretsKey));
    expect(key.Properties?.EnableKeyRotation).toBe(true);
    expect((key as { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
  });

  it('attack: a compromised function other than webhooks and event-subscriptions cannot seal, and only they, ingest and event-delivery can open, with the secret box’s encryption context only', () => {
    // Prepare
    const keyArn = { 'Fn::GetAtt': [logicalId(synth.stack.secretsKey), 'Arn'] };
    const context = {
      'kms:EncryptionContext:service': KMS_ENCRYPTION_CONTEXT.service,
      'kms:EncryptionContext:purpose': KMS_ENCRYPTION_CONTEXT.purpose,
    };
    // Act
    const byFunction = Object.fromEntries(Object.keys(FUNCTIONS).map((name) => [name, kmsStatements(name)]));
    // Assess: webhooks and event-subscriptions GenerateDataKey + Decrypt, ingest and event-delivery Decrypt only, every other function nothing
    for (const sealer of ['webhooks', 'event-subscriptions']) {
      expect(byFunction[sealer], sealer).toEqual([
        { Sid: 'SecretsKey', Effect: 'Allow', Action: ['kms:GenerateDataKey', 'kms:Decrypt'], Resource: keyArn, Condition: { StringEquals: context } },
      ]);
    }
    for (const opener of ['ingest', 'event-delivery']) {
      expect(byFunction[opener], opener).toEqual([{ Sid: 'SecretsKey', Effect: 'Allow', Action: 'kms:Decrypt', Resource: keyArn, Condition: { StringEquals: context } }]);
    }
    for (const [name, statements] of Object.entries(byFunction)) {
      if (!KEY_USERS.includes(name)) expect(statements, name).toEqual([]);
    }
  });

  it('tells exactly the functions with the grant which key to use (SECRETS_KMS_KEY_ID)', () => {
    // Act
    const keyIds = Object.fromEntries(
      Object.keys(FUNCTIONS).map((name) => {
        const fn = synth.resources[functionLogicalId(synth, name)];
        return [name, (fn?.Properties?.Environment as { Variables: Record<string, unknown> }).Variables.SECRETS_KMS_KEY_ID];
      }),
    );
    // Assess
    const keyArn = { 'Fn::GetAtt': [logicalId(synth.stack.secretsKey), 'Arn'] };
    for (const name of KEY_USERS) expect(keyIds[name], name).toEqual(keyArn);
    expect(Object.entries(keyIds).filter(([name, id]) => id !== undefined && !KEY_USERS.includes(name))).toEqual([]);
  });
});
