import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { tenantBackupPrefix } from '../../lib/domain/backup.ts';
import { createOrganization } from '../../lib/services/organizations.ts';
import type { StackInfo } from '../../infra/local/stack.ts';
import { wineImportFile } from './imports.ts';
import type { Row } from './measure.ts';

/**
 * The backup copy (docs/backup.md): a 1,000-product import with passports, then (1) the lag: how
 * long after the import job finished the last version's objects were in the store, private and
 * public copy (the stream poller and the backup function draining the stream); (2) what one
 * version costs: the store's requests per version (puts, and any other request the copy made), and
 * the bytes of its private object and of its public objects (JSON read form and 24 pages).
 * The store is watched with a client of this process; its own requests are left out of the counts.
 */
export async function benchBackup(stack: StackInfo, products = 1000): Promise<Row[]> {
  const { organization, keys } = await createOrganization('Bench backup');
  const tenant = { orgId: organization.orgId, environment: 'live' as const };
  const s3 = new S3Client({ region: stack.region, endpoint: stack.backupEndpoint, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const file = wineImportFile(products, '47', 'Backed-up Riesling');
  const storeCounts = async () => (await (await fetch(`${stack.url}/_local/backup-store`)).json()) as Record<string, number>;
  /** The tenant's objects in a bucket and their bytes (ListObjectsV2 pages; these requests are subtracted below). */
  let listCalls = 0;
  const listed = async (bucket: string) => {
    let count = 0;
    let bytes = 0;
    let token: string | undefined;
    do {
      const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: tenantBackupPrefix(tenant), ...(token ? { ContinuationToken: token } : {}) }));
      listCalls++;
      for (const object of out.Contents ?? []) {
        count++;
        bytes += object.Size ?? 0;
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return { count, bytes };
  };

  const before = await storeCounts();
  const response = await fetch(`${stack.url}/v1/imports`, { method: 'POST', headers: { authorization: `Bearer ${keys.live.key}`, 'content-type': 'text/csv' }, body: file });
  if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  for (;;) {
    const job = await fetch(`${stack.url}/v1/imports/${id}`, { headers: { authorization: `Bearer ${keys.live.key}` } });
    const status = ((await job.json()) as { status?: string }).status;
    if (status === 'succeeded' || status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const imported = performance.now();
  // Each passport version: one private object; its JSON read form and its page in 24 languages in the public copy.
  const publicPerVersion = 25;
  let store = await listed(stack.backupBucket);
  let mirror = await listed(stack.backupPublicBucket);
  const deadline = Date.now() + 600_000;
  while (store.count < products || mirror.count < products * publicPerVersion) {
    if (Date.now() > deadline) throw new Error(`only ${store.count} of ${products} versions (${mirror.count} public objects) reached the backup store in 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    store = await listed(stack.backupBucket);
    mirror = await listed(stack.backupPublicBucket);
  }
  const lagSeconds = (performance.now() - imported) / 1000;
  const after = await storeCounts();
  const delta = (key: string) => (after[key] ?? 0) - (before[key] ?? 0);
  const puts = delta('PUT object');
  const all = Object.keys(after).reduce((sum, key) => sum + delta(key), 0) - listCalls;
  s3.destroy();
  return [
    { benchmark: 'backup', figure: `lag after a ${products}-product import`, value: lagSeconds, unit: 's', note: 'from the job finished to the last version\'s objects in both copies' },
    { benchmark: 'backup', figure: 'store requests per version', value: all / products, unit: 'requests', note: `${(puts / products).toFixed(2)} puts per version` },
    { benchmark: 'backup', figure: 'bytes per version (a wine passport)', value: store.bytes / products, unit: 'bytes', note: 'the private copy\'s object' },
    { benchmark: 'backup', figure: 'public bytes per version (a wine passport)', value: mirror.bytes / products, unit: 'bytes', note: `${publicPerVersion} objects: the JSON read form and the page in 24 languages` },
  ];
}
