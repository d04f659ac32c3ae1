import type { KMSClient } from '@aws-sdk/client-kms';
import { config } from '../config.ts';
import { sdkClientBudget } from '../data/aws-budget.ts';
import {
  allocateStatusIndex,
  claimStatusIndex,
  getCurrentSigningKeyId,
  getRevokedBits,
  getSigningKey,
  getStatusIndex,
  getStoredCredential,
  listSigningKeys,
  putSigningKey,
  setCurrentSigningKey,
  statusIndexesAllocated,
  storeCredential,
  type SigningKeyRecord,
} from '../data/credentials.ts';
import { findDomainByHostname } from '../data/domains.ts';
import { getOrganization } from '../data/organizations.ts';
import { findPassportVersion, getVersionPage } from '../data/passports.ts';
import { createKmsSigningKey, createLocalSigningKey, kmsSigner, loadLocalSigner, type Signer } from '../data/signers.ts';
import {
  compactJws,
  credentialHeader,
  didDocument,
  encodeStatusList,
  hostDid,
  organizationDid,
  passportCredential,
  signingInput,
  STATUS_LIST_BITS,
  statusListCredential,
  statusListUrl,
  statusPosition,
  verificationMethodId,
} from '../domain/credential.ts';
import { newSortableId } from '../domain/ids.ts';
import { credentialJwtUrl } from '../domain/page-urls.ts';
import type { ProductRecord } from '../domain/product.ts';
import type { Tenant } from '../domain/tenant.ts';
import { NotFoundError } from '../http/errors.ts';
import { reconcileStatusBit } from './status-list.ts';

/**
 * Signed passports (docs/credentials.md): the organization's signing keys (created on first use,
 * rotated by the operator), each published version's credential (signed once, on its first
 * request, then stored), the DID documents and the status list credentials.
 */

let kms: KMSClient | undefined;
async function kmsClient(): Promise<KMSClient> {
  if (!kms) {
    const { KMSClient } = await import('@aws-sdk/client-kms');
    kms = new KMSClient({ region: config().region, ...sdkClientBudget() });
  }
  return kms;
}

/** A new key of the organization (KMS in AWS; a local key file with SIGNING_KEY_DIR), recorded but not current. */
export async function createSigningKey(orgId: string): Promise<SigningKeyRecord> {
  const keyId = newSortableId('key');
  const createdAt = new Date().toISOString();
  const dir = config().signingKeyDir;
  let record: SigningKeyRecord;
  if (dir) {
    record = { orgId, keyId, kind: 'local', publicJwk: createLocalSigningKey(dir, keyId), createdAt };
  } else {
    const client = await kmsClient();
    const kmsKeyArn = await createKmsSigningKey(client, orgId);
    record = { orgId, keyId, kind: 'kms', kmsKeyArn, publicJwk: await kmsSigner(client, kmsKeyArn, keyId).publicJwk(), createdAt };
  }
  await putSigningKey(record);
  return record;
}

/** How long a warm function keeps using the current key it read: a rotation is in effect within this. */
const CURRENT_KEY_CACHE_MS = 60_000;
const currentKeys = new Map<string, { keyId: string; until: number }>();
const signers = new Map<string, Promise<Signer>>();

function signerOf(orgId: string, keyId: string): Promise<Signer> {
  const cacheKey = `${orgId}#${keyId}`;
  let signer = signers.get(cacheKey);
  if (!signer) {
    signer = (async () => {
      const record = await getSigningKey(orgId, keyId);
      if (!record) throw new Error(`Signing key ${keyId} of ${orgId} is not recorded.`);
      if (record.kind === 'kms' && record.kmsKeyArn) return kmsSigner(await kmsClient(), record.kmsKeyArn, keyId);
      const dir = config().signingKeyDir;
      if (!dir) throw new Error(`Signing key ${keyId} is a local key, and SIGNING_KEY_DIR is not set.`);
      return loadLocalSigner(dir, keyId);
    })();
    signer.catch(() => signers.delete(cacheKey));
    signers.set(cacheKey, signer);
  }
  return signer;
}

/**
 * The organization's current signer, its first key created on first use. Two first uses may both
 * create a key: the pointer is written on the condition that there is none, so one key becomes
 * current and the other stays listed (valid, in the DID document) but signs nothing.
 */
export async function currentSigner(orgId: string): Promise<Signer> {
  const known = currentKeys.get(orgId);
  let keyId = known && known.until > Date.now() ? known.keyId : await getCurrentSigningKeyId(orgId);
  if (!keyId) {
    const created = await createSigningKey(orgId);
    keyId = (await setCurrentSigningKey(orgId, created.keyId, true)) === 'set' ? created.keyId : await getCurrentSigningKeyId(orgId);
    if (!keyId) throw new Error(`No current signing key for ${orgId}.`);
  }
  currentKeys.set(orgId, { keyId, until: Date.now() + CURRENT_KEY_CACHE_MS });
  return signerOf(orgId, keyId);
}

/** Makes a new key current (`npm run admin -- keys rotate`); the old ones stay in the DID document. */
export async function rotateSigningKey(orgId: string): Promise<SigningKeyRecord> {
  if (!(await getOrganization(orgId))) throw new NotFoundError(`No organization '${orgId}'.`, { param: 'org' });
  const created = await createSigningKey(orgId);
  await setCurrentSigningKey(orgId, created.keyId, false);
  currentKeys.delete(orgId);
  return created;
}

/** A compact JWS (VC-JOSE) of `payload`, signed with the organization's current key. */
async function signCredential(orgId: string, payload: object): Promise<{ jwt: string; keyId: string }> {
  const signer = await currentSigner(orgId);
  const header = credentialHeader(verificationMethodId(organizationDid(config().resolverOrigin, orgId), signer.keyId));
  const input = signingInput(header, payload);
  return { jwt: compactJws(input, await signer.sign(Buffer.from(input, 'ascii'))), keyId: signer.keyId };
}

/** The product's status index, claimed on first need; the claim then settles the bit (status-list.ts). */
async function statusIndexOf(tenant: Tenant, productId: string): Promise<number> {
  const known = await getStatusIndex(tenant, productId);
  if (known !== undefined) return known;
  const index = await claimStatusIndex(tenant, productId, await allocateStatusIndex(tenant));
  await reconcileStatusBit(tenant, productId, index);
  return index;
}

/**
 * The credential JWT of a published version (by GTIN-14 and number), signed on its first request
 * and stored: every later read is one GetItem and no KMS call. Undefined for no such version.
 */
export async function versionCredential(tenant: Tenant, gtin14: string, version: number): Promise<string | undefined> {
  const stored = await getStoredCredential(tenant, gtin14, version);
  if (stored) return stored;
  const page = await getVersionPage(tenant, gtin14, version);
  const organization = page && (await getOrganization(tenant.orgId));
  if (!page || !organization) return undefined;
  const origin = config().resolverOrigin;
  const index = await statusIndexOf(tenant, page.productId);
  const credential = passportCredential({
    id: credentialJwtUrl(origin, tenant, gtin14, version),
    issuer: { did: organizationDid(origin, tenant.orgId), name: organization.name },
    product: page,
    passport: page.passport,
    status: { index, listUrl: statusListUrl(origin, tenant, statusPosition(index).list) },
  });
  const { jwt, keyId } = await signCredential(tenant.orgId, credential);
  return storeCredential(tenant, gtin14, version, jwt, keyId);
}

/** The credential of a product's passport version named by its id (the API); 404 for none. */
export async function passportIdCredential(tenant: Tenant, product: ProductRecord, passportId: string): Promise<string> {
  const version = await findPassportVersion(tenant, product.productId, passportId);
  const jwt = version === undefined ? undefined : await versionCredential(tenant, product.gtin, version);
  if (!jwt) throw new NotFoundError(`No passport '${passportId}' for this product.`, { param: 'passportId' });
  return jwt;
}

/** The DID document of an organization on the platform host; undefined for no such organization. */
export async function organizationDidDocument(orgId: string) {
  if (!(await getOrganization(orgId))) return undefined;
  return didDocument(organizationDid(config().resolverOrigin, orgId), await listSigningKeys(orgId));
}

/** The DID document of a verified brand hostname: the same keys, also known as the platform DID. */
export async function hostDidDocument(hostname: string) {
  const claim = await findDomainByHostname(hostname);
  if (claim?.status !== 'verified') return undefined;
  return didDocument(hostDid(hostname), await listSigningKeys(claim.orgId), [organizationDid(config().resolverOrigin, claim.orgId)]);
}

/** Signed status lists by tenant and list, reused while their bits are unchanged (a warm function signs each content once). */
const statusLists = new Map<string, { encodedList: string; jwt: string }>();
const STATUS_LIST_CACHE_SIZE = 1_000;

/** The status list credential JWT of one of the tenant's lists; undefined for a list not handed out. */
export async function statusListJwt(tenant: Tenant, list: number): Promise<string | undefined> {
  if (!Number.isSafeInteger(list) || list < 1) return undefined;
  if (list > Math.ceil((await statusIndexesAllocated(tenant)) / STATUS_LIST_BITS)) return undefined;
  const encodedList = encodeStatusList(await getRevokedBits(tenant, list));
  const cacheKey = `${tenant.orgId}#${tenant.environment}#${list}`;
  const cached = statusLists.get(cacheKey);
  if (cached?.encodedList === encodedList) return cached.jwt;
  const origin = config().resolverOrigin;
  const credential = statusListCredential({
    url: statusListUrl(origin, tenant, list),
    issuerDid: organizationDid(origin, tenant.orgId),
    validFrom: new Date().toISOString(),
    encodedList,
  });
  const { jwt } = await signCredential(tenant.orgId, credential);
  if (statusLists.size >= STATUS_LIST_CACHE_SIZE) statusLists.clear();
  statusLists.set(cacheKey, { encodedList, jwt });
  return jwt;
}
