/**
 * The CDK app: `npm run synth` (or `npx cdk synth|diff|deploy`). Environment-agnostic: it needs no
 * account, credentials or network to synthesize; deployment settings come from CDK context
 * (see infra/cdk/settings.ts and docs/deploy.md#context-values).
 */
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { REPO_ROOT } from './cdk/bundling.ts';
import { settingsFromContext } from './cdk/settings.ts';
import { BackupStoreStack } from './cdk/backup-stack.ts';
import { backupStoreFromContext } from './cdk/settings.ts';
import { PassportStack } from './cdk/stack.ts';

// The CDK CLI sets CDK_OUTDIR; run directly (`npx tsx infra/app.ts`), the app writes to cdk.out too.
const app = new App({ outdir: process.env.CDK_OUTDIR ?? join(REPO_ROOT, 'cdk.out') });
const stackName: unknown = app.node.tryGetContext('stackName');
const name = typeof stackName === 'string' && stackName ? stackName : 'ProductPassport';
// The backup store in another region (and account), when the context names one (docs/backup.md#another-region-or-account).
const backup = backupStoreFromContext(app.node, name);
const backupStack = backup && new BackupStoreStack(app, `${name}Backup`, backup.stack);
const service = new PassportStack(app, name, {
  description: 'Product Passport service: API, public resolver, single table, scan queue',
  settings: settingsFromContext(app.node),
  dashboard: true,
  ...(backup ? { backupStore: backup.service } : {}),
});
if (backupStack) service.addStackDependency(backupStack, 'the backup function writes to its buckets');
// cdk-nag: an AwsSolutions finding stops synthesis unless acknowledged with a reason (infra/cdk/nag.ts);
// the reasons are written into the template's metadata for audits.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true }));
app.synth();
