import { CfnOutput, RemovalPolicy } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { StackPart } from './part.ts';

/**
 * The KMS key that seals webhook signing secrets at rest (lib/data/secret-box.ts; docs/security.md,
 * finding 3): envelope encryption, a data key from GenerateDataKey per sealing instance, opened with
 * Decrypt. Yearly automatic rotation (old key material keeps opening what it sealed); retained when
 * the stack goes, since the table's items cannot be read without it. The functions get exactly the
 * actions their `grants.secretsKey` lists (constructs/api.ts), nothing through the key policy.
 */
export class SecretsKey extends StackPart {
  readonly key: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Product Passport: seals webhook signing secrets in the table (envelope encryption)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The admin CLI with --aws creates webhook endpoints too: it needs SECRETS_KMS_KEY_ID.
    new CfnOutput(this, 'SecretsKeyArn', { value: this.key.keyArn });
  }
}
