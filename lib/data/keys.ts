import type { Tenant } from '../domain/tenant.ts';

/**
 * Every partition and sort key of the single table (`PK` / `SK`) and of its one sparse index
 * (`GSI1PK` / `SK`, lib/data/table.ts). The entity modules build their keys only through these
 * functions, so this chart is the whole key design. Stored formats never change: items already written under them
 * must stay readable (test/unit/keys.test.ts pins each one to the character).
 *
 * | Entity | PK | SK | Access pattern |
 * |---|---|---|---|
 * | product | `T#{orgId}#{env}` | `PRODUCT#{productId}` | get by id; list a tenant's products in creation order (ids are UUID v7), count them |
 * | GTIN claim + public view | `T#{orgId}#{env}` | `GTIN#{gtin14}` | one GTIN per tenant (conditional put); the resolver's one read per scan |
 * | passport version | `T#{orgId}#{env}` | `PASSPORT#{productId}#{version, 6 digits}` | get one version; list a product's versions newest first |
 * | passport id | `T#{orgId}#{env}` | `PASSPORTID#{passportId}` | the version a passport id names (cursors) |
 * | battery identifier claim | `T#{orgId}#{env}` | `BATTERYID#{field}#{sha256 of the lower-case identifier}` | one battery per productIdentifier or batteryPassportIdentifier per tenant (conditional put in the item's transaction; docs/battery.md#model-and-item) |
 * | version page | `T#{orgId}#{env}` | `PAGE#{gtin14}#{version, 6 digits}` | a version's immutable e-label and JSON pages in one GetItem: the product's public fields as published with the version, and the version (written in the publishing transaction) |
 * | supplier | `T#{orgId}#{env}` | `SUPPLIER#{supplierId}` | get by id; list in creation order |
 * | import job | `T#{orgId}#{env}` | `IMPORT#{importId}` | get by id; list newest first (ids sort by time); counters ADDed per chunk |
 * | import chunk | `T#{orgId}#{env}` | `IMPORTCHUNK#{importId}#{n, 4 digits}` | the ≤ 100 rows of one SQS message, its per-row outcomes and its done marker (TTL 14 days) |
 * | webhook watermark | `T#{orgId}#{env}` | `WHMARK#{productId}` | the newest source revision or update time a delivery published for the product |
 * | supplier name claim | `T#{orgId}#{env}` | `SUPPLIERNAME#{normalized name}` | the first supplier of a name (webhook deliveries reuse it) |
 * | idempotency record | `IDEMPOTENCY#{orgId}#{env}` | the request's hash (Powertools) | replay a request with the same `Idempotency-Key` |
 * | organization | `ORG#{orgId}` | `ORG` | get by id |
 * | API key listing | `ORG#{orgId}` | `APIKEY#{keyId}` | list an organization's keys; revoke, rate limit, last use |
 * | active API key count | `ORG#{orgId}` | `APIKEYS` | the cap on an organization's active keys, kept exact in the insert and revoke transactions |
 * | member of an organization | `ORG#{orgId}` | `MEMBER#{userId}` | check a session's membership |
 * | webhook endpoint listing | `ORG#{orgId}` | `WHE#{endpointId}` | list an organization's endpoints |
 * | brand domain | `ORG#{orgId}` | `DOMAIN#{domainId}` | get by id; list an organization's domains (docs/brand-domains.md) |
 * | default brand domain | `ORG#{orgId}` | `DEFAULTDOMAIN` | the live default domain's hostname: one GetItem when a live product is created |
 * | API key by hash | `APIKEY#{sha256}` | `APIKEY` | authenticate a request (one GetItem) |
 * | webhook endpoint lookup | `WHE#{endpointId}` | `WHE` | a delivery finds its endpoint by id alone (one GetItem) |
 * | hostname claim | `HOST#{lower-case hostname}` | `HOST` | one organization per verified hostname (conditional write); the resolver finds a brand host's organization (one GetItem) |
 * | accepted webhook delivery | `WHD#{endpointId}` | `SHA256#{body digest}` or `MSGID#{webhook-id}` | refuse a replayed delivery (no TTL: lib/data/webhook-deliveries.ts) |
 * | user | `USER#{userId}` | `USER` | get by id |
 * | membership of a user | `USER#{userId}` | `MEMBER#{orgId}` | list a user's organizations in one query |
 * | email claim | `EMAIL#{lower-case email}` | `EMAIL` | one user per email; find the user of an email |
 * | sign-in identity | `IDENTITY#{issuer}#{subject}` | `IDENTITY` | find the user of an ID token's `iss` + `sub` |
 * | session | `SESSION#{sessionId}` | `SESSION` | is the session live (TTL) |
 * | rate-limit window | `RATELIMIT#{keyId}#{windowStart}` | `RATELIMIT` | count a key's requests in one minute (TTL) |
 * | day rollup | `STATS#{orgId}#{env}#{productId}` | `DAY#{yyyy-mm-dd}` | a product's scans between two days (one query) |
 * | batch day rollup | `STATS#{orgId}#{env}#{productId}#10#{lot}` | `DAY#{yyyy-mm-dd}` | a registered batch's scans between two days (one query); an item's scans count for its lot, never for itself |
 * | scan ledger | `SCANLOG#{10-second bucket of the scan time}` | a random token per written batch | the 8-byte hashes of the counted SQS message ids of one batch (TTL 14 days; docs/decisions.md#exact-scan-counts-without-a-ledger-item-per-scan) |
 * | spilled scan | `SCANSPILL#{spillId}` | `SCANSPILL` | a scan event the resolver could not queue, one put; the table's stream carries it to the scan-spill function, which counts it (TTL 2 days; docs/decisions.md#scans-while-the-queue-is-down) |
 * | readiness probe | `READY` | `READY` | never written: GET /ready reads it to see that the table answers |
 * | passport draft | `T#{orgId}#{env}` | `DRAFT#{productId}` | the product's one draft (docs/lifecycle.md#drafts) |
 * | event | `EVENTS#{orgId}#{env}` | `EVT#{eventId}` | the append-only event log: newest first (ids sort by time), get one by id (docs/lifecycle.md#event-log) |
 * | event, by type (index GSI1) | GSI1PK `EVTYPE#{orgId}#{env}#{type}` | `EVT#{eventId}` | the same item in the sparse index: one type's events newest first, a page reading only that page (docs/decisions.md#events-by-type-a-sparse-index) |
 * | signed credential | `T#{orgId}#{env}` | `VC#{gtin14}#{version, 6 digits}` | a version's credential JWT, signed once on first request (conditional put; docs/credentials.md) |
 * | status index | `T#{orgId}#{env}` | `STATUSIDX#{productId}` | the product's index in the tenant's status lists (conditional put, never changes) |
 * | status list counter | `T#{orgId}#{env}` | `STATUSLISTS` | the next free status index (atomic ADD) |
 * | status list | `T#{orgId}#{env}` | `STATUSLIST#{list}` | the revoked bits of one list, a number set (ADD/DELETE in the withdrawal's transaction) |
 * | signing key | `ORG#{orgId}` | `SIGNKEY#{keyId}` | every key the organization signed with: its DID document (docs/credentials.md#keys) |
 * | current signing key | `ORG#{orgId}` | `SIGNKEYCURRENT` | the key new credentials are signed with (created on first use, conditionally; moved by rotation) |
 * | event subscription | `T#{orgId}#{env}` | `EVSUB#{subscriptionId}` | get by id; the tenant's subscriptions in one query (the fan-out's one read per tenant and stream batch; docs/webhooks-outbound.md) |
 * | event subscription count | `T#{orgId}#{env}` | `EVSUBS` | the cap on a tenant's event subscriptions, kept exact in the insert and delete transactions |
 * | event delivery | `EVDEL#{orgId}#{env}#{subscriptionId}` | `DEL#{deliveryId}` | one per subscription and event: its attempts; a subscription's log newest first (TTL 30 days) |
 * | label term correction | `T#{orgId}#{env}` | `LABELTERM#{lang}#{termKey}` | get one; the tenant's corrections in one query (publishing copies them into the version's page item; docs/labelling.md#correcting-a-term) |
 * | language sign-off | `T#{orgId}#{env}` | `LABELSIGNOFF#{lang}` | the language's current sign-off with each term's digest and wording: get one; the tenant's in one query (docs/labelling.md#sign-off) |
 * | labelling settings | `T#{orgId}#{env}` | `LABELSETTINGS` | labelLanguages and each sign-off's two digests: one GetItem per publication (docs/labelling.md#sign-off) |
 * | batch | `T#{orgId}#{env}` | `BATCH#{gtin14}#{lot}` | a product's batch, its current version: get one (the resolver reads it with the GTIN item in one BatchGetItem); a product's batches in lot order (one query); docs/api.md#batches-and-items |
 * | batch version | `T#{orgId}#{env}` | `BATCHV#{gtin14}#{lot}#{version, 6 digits}` | an earlier version of a batch, put when the next one replaces it: `?at=` and the immutable pages of that version |
 * | item | `T#{orgId}#{env}` | `ITEM#{gtin14}#{serial}` | a product's serialised item, its current version: get one (with the GTIN item in one BatchGetItem per scan); a product's items in serial order (one query); bulk registration's BatchWriteItem |
 * | item version | `T#{orgId}#{env}` | `ITEMV#{gtin14}#{serial}#{version, 6 digits}` | an earlier version of an item, put when the next one replaces it |
 * | handover, sender's copy | `T#{orgId}#{env}` | `HANDOVER#{handoverId}` | a battery offered to another organization: get by id; the sender's handovers oldest first (ids sort by time); docs/battery.md#second-life |
 * | handover, recipient's copy | `T#{orgId}#{env}` | `HANDOVERIN#{handoverId}` | the same record in the recipient's partition: what was offered to it, without reading another tenant's partition |
 * | transfer, sender's copy | `T#{orgId}#{env}` | `TRANSFER#{transferId}` | a product offered to another organization (a change of economic operator): get by id; the sender's transfers oldest first; the move's progress (docs/transfers.md) |
 * | transfer, receiver's copy | `T#{orgId}#{env}` | `TRANSFERIN#{transferId}` | the same record in the receiver's partition, changed with the sender's in one transaction |
 * | open transfer of a product | `T#{orgId}#{env}` | `TRANSFEROPEN#{productId}` | one open transfer per product: put with the offer on the condition that none exists, deleted when it is declined, cancelled or completed |
 * | access grant, owner's copy | `T#{orgId}#{env}` | `GRANT#{grantId}` | get by id; the owner's grants oldest first (docs/access.md#grants) |
 * | access grant, by grantee | `T#{orgId}#{env}` | `GRANTTO#{granteeOrgId}#{grantId}` | the grants the owner gave one organization: one Query per read of the owner's passports by it |
 * | access grant, grantee's copy | `T#{granteeOrgId}#{env}` | `GRANTIN#{grantId}` | the grants an organization holds, in its own partition |
 * | access request, owner's copy | `T#{ownerOrgId}#{env}` | `AREQ#{requestId}` | the requests made to an organization: get by id; oldest first (ids sort by time); docs/access.md#access-requests |
 * | access request, requester's copy | `T#{requesterOrgId}#{env}` | `AREQOUT#{requestId}` | the same record in the requester's partition: the requests it made |
 * | registration | `T#{orgId}#{env}` | `REG#{registrationId}` | one per passport identifier (model, batch, item) on its way into the EU registry: get by id (consistent); the tenant's registrations in id order, filtered by status, granularity or product (docs/registry.md#registrations) |
 * | registration, proof due (index GSI1) | GSI1PK `PROOFDUE#{yyyy-mm-dd}#{shard 0–7}` | `REG#{registrationId}` | a registered entry in the sparse index under the day its proof of registration is due for renewal: the daily sweep reads each day's eight shards (docs/registry.md#proof-of-registration) |
 * | registry settings | `T#{orgId}#{env}` | `REGSETTINGS` | the tenant's operator identity, facilities, commodity code and whether registration is on: one GetItem per publication (cached) |
 */

/** A key of one item. */
export interface ItemKey {
  PK: string;
  SK: string;
}

// The tenant partition: everything a tenant (organization + environment) owns.

export const tenantPk = (tenant: Tenant): string => `T#${tenant.orgId}#${tenant.environment}`;
/** Sort-key prefix of a tenant's products. */
export const PRODUCT_PREFIX = 'PRODUCT#';
export const productSk = (productId: string): string => `${PRODUCT_PREFIX}${productId}`;
export const gtinSk = (gtin14: string): string => `GTIN#${gtin14}`;
/** Sort-key prefix of one product's passport versions. */
export const passportVersionPrefix = (productId: string): string => `PASSPORT#${productId}#`;
export const passportVersionSk = (productId: string, version: number): string =>
  `${passportVersionPrefix(productId)}${String(version).padStart(6, '0')}`;
export const passportIdSk = (passportId: string): string => `PASSPORTID#${passportId}`;
/** Sort-key prefix of the version pages of one GTIN (`PAGE#{gtin14}#`, as versionPageSk writes them). */
export const versionPagePrefix = (gtin14: string): string => `PAGE#${gtin14}#`;
/** A published version as its pages show it (lib/domain/page-urls.ts), found by GTIN and version. */
export const versionPageSk = (gtin14: string, version: number): string => `PAGE#${gtin14}#${String(version).padStart(6, '0')}`;
/** The product's one passport draft (docs/lifecycle.md#drafts). */
export const draftSk = (productId: string): string => `DRAFT#${productId}`;

// A product's batches and serialised items (docs/api.md#batches-and-items), keyed by the product's GTIN-14,
// which never changes (docs/decisions.md#batches-and-items-keyed-by-gtin): the resolver reads the GTIN item
// and a record in one BatchGetItem. Lots and serials are GS1 character set 82, which has no `#`.

/** Sort-key prefix of a product's batches (`BATCHV#` does not start with it). */
export const batchPrefix = (gtin14: string): string => `BATCH#${gtin14}#`;
export const batchSk = (gtin14: string, lot: string): string => `${batchPrefix(gtin14)}${lot}`;
/** Sort-key prefix of one batch's earlier versions. */
export const batchVersionPrefix = (gtin14: string, lot: string): string => `BATCHV#${gtin14}#${lot}#`;
export const batchVersionSk = (gtin14: string, lot: string, version: number): string => `${batchVersionPrefix(gtin14, lot)}${String(version).padStart(6, '0')}`;
/** Sort-key prefix of a product's items (`ITEMV#` does not start with it). */
export const itemPrefix = (gtin14: string): string => `ITEM#${gtin14}#`;
export const itemSk = (gtin14: string, serial: string): string => `${itemPrefix(gtin14)}${serial}`;
/** Sort-key prefix of one item's earlier versions. */
/** The claim on a battery's identifier (`field` productIdentifier or batteryPassportIdentifier), by the SHA-256 of its lower-case form. */
export const batteryIdClaimSk = (field: string, digest: string): string => `BATTERYID#${field}#${digest}`;

export const itemVersionPrefix = (gtin14: string, serial: string): string => `ITEMV#${gtin14}#${serial}#`;
/** Sort-key prefixes of the earlier versions of every batch or item of one GTIN (a product's whole history: docs/transfers.md). */
export const batchVersionsPrefix = (gtin14: string): string => `BATCHV#${gtin14}#`;
export const itemVersionsPrefix = (gtin14: string): string => `ITEMV#${gtin14}#`;
export const itemVersionSk = (gtin14: string, serial: string, version: number): string => `${itemVersionPrefix(gtin14, serial)}${String(version).padStart(6, '0')}`;

export const GRANT_PREFIX = 'GRANT#';
export const GRANT_IN_PREFIX = 'GRANTIN#';
export const grantSk = (grantId: string): string => `${GRANT_PREFIX}${grantId}`;
export const grantInSk = (grantId: string): string => `${GRANT_IN_PREFIX}${grantId}`;
export const grantToPrefix = (granteeOrgId: string): string => `GRANTTO#${granteeOrgId}#`;
export const grantToSk = (granteeOrgId: string, grantId: string): string => `${grantToPrefix(granteeOrgId)}${grantId}`;

export const ACCESS_REQUEST_PREFIX = 'AREQ#';
export const ACCESS_REQUEST_OUT_PREFIX = 'AREQOUT#';
/** An access request's copy in the owner's or the requester's partition. */
export const accessRequestSk = (side: 'owner' | 'requester', requestId: string): string => `${side === 'owner' ? ACCESS_REQUEST_PREFIX : ACCESS_REQUEST_OUT_PREFIX}${requestId}`;

/** Sort-key prefix of a tenant's registrations in the EU registry (`REGSETTINGS` has no `#`: not under it). */
export const REGISTRATION_PREFIX = 'REG#';
export const registrationSk = (registrationId: string): string => `${REGISTRATION_PREFIX}${registrationId}`;
/** The shards of a day's proofs due for renewal: a day with a million renewals is eight index partitions, not one. */
export const PROOF_DUE_SHARDS = 8;
export const proofDuePk = (day: string, shard: number): string => `PROOFDUE#${day}#${shard}`;
/** A registration id's shard: its last base32 character (a digest's, so evenly spread). */
export const proofDueShardOf = (registrationId: string): number => registrationId.charCodeAt(registrationId.length - 1) % PROOF_DUE_SHARDS;
/** The tenant of a tenant partition key, `T#{orgId}#{env}`. */
export function tenantOfPk(pk: string): Tenant | undefined {
  const match = /^T#([^#]+)#(live|test)$/.exec(pk);
  return match ? { orgId: match[1] as string, environment: match[2] as Tenant['environment'] } : undefined;
}
/** The tenant's registry settings (docs/registry.md#settings). */
export const REGISTRY_SETTINGS_SK = 'REGSETTINGS';

export const HANDOVER_PREFIX = 'HANDOVER#';
export const HANDOVER_IN_PREFIX = 'HANDOVERIN#';
/** A handover's copy in the sender's (`out`) or the recipient's (`in`) partition. */
export const handoverSk = (side: 'out' | 'in', handoverId: string): string => `${side === 'out' ? HANDOVER_PREFIX : HANDOVER_IN_PREFIX}${handoverId}`;

// Transfers of a product to another organization (docs/transfers.md): neither `TRANSFERIN#` nor `TRANSFEROPEN#` starts with `TRANSFER#`.
export const TRANSFER_PREFIX = 'TRANSFER#';
export const TRANSFER_IN_PREFIX = 'TRANSFERIN#';
/** A transfer's copy in the sender's (`out`) or the receiver's (`in`) partition. */
export const transferSk = (side: 'out' | 'in', transferId: string): string => `${side === 'out' ? TRANSFER_PREFIX : TRANSFER_IN_PREFIX}${transferId}`;
/** The claim that a product of the tenant has an open transfer (offered or accepted): one at a time. */
export const openTransferSk = (productId: string): string => `TRANSFEROPEN#${productId}`;

// An organization's correction of a legal term of the e-label, per tenant (docs/labelling.md#correcting-a-term).
export const LABEL_TERM_PREFIX = 'LABELTERM#';
export const labelTermSk = (lang: string, termKey: string): string => `${LABEL_TERM_PREFIX}${lang}#${termKey}`;
/** The tenant's current set of corrections, in one item (neither key starts with LABEL_TERM_PREFIX). */
export const LABEL_TERM_SET_SK = 'LABELTERMSET';
/** A set of corrections that versions were published with, by its digest: never changed once written. */
export const labelTermSnapshotSk = (digest: string): string => `LABELTERMSET#${digest}`;
// A compliance officer's sign-off of a language, per tenant (docs/labelling.md#sign-off): the language's current one.
export const LABEL_SIGN_OFF_PREFIX = 'LABELSIGNOFF#';
export const labelSignOffSk = (lang: string): string => `${LABEL_SIGN_OFF_PREFIX}${lang}`;
/** The tenant's labelling settings (labelLanguages) and what publishing needs of each language's sign-off, in one item. */
export const LABELLING_SETTINGS_SK = 'LABELSETTINGS';
/** Sort-key prefix of a tenant's import jobs (`IMPORTCHUNK#` does not start with it). */
export const IMPORT_PREFIX = 'IMPORT#';
export const importSk = (importId: string): string => `${IMPORT_PREFIX}${importId}`;
export const importChunkSk = (importId: string, chunk: number): string => `IMPORTCHUNK#${importId}#${String(chunk).padStart(4, '0')}`;
/** Sort-key prefix of a tenant's suppliers. */
export const SUPPLIER_PREFIX = 'SUPPLIER#';
export const supplierSk = (supplierId: string): string => `${SUPPLIER_PREFIX}${supplierId}`;
/** The name claim: case, Unicode form and runs of white space do not make another name. */
/** The newest source revision or update time webhook deliveries published for a product. */
export const watermarkSk = (productId: string): string => `WHMARK#${productId}`;
export const supplierNameSk = (name: string): string =>
  `SUPPLIERNAME#${name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase()}`;

/** A version's signed credential (docs/credentials.md). */
export const credentialSk = (gtin14: string, version: number): string => `VC#${gtin14}#${String(version).padStart(6, '0')}`;
/** A product's index in the tenant's status lists. */
export const statusIndexSk = (productId: string): string => `STATUSIDX#${productId}`;
/** The tenant's next free status index (no `#`: not under the list prefix). */
export const STATUS_COUNTER_SK = 'STATUSLISTS';
/** One status list's revoked bits. */
export const statusListSk = (list: number): string => `STATUSLIST#${list}`;

/** The tenant's event log: its own partition, so listing it reads nothing else (docs/lifecycle.md#event-log). */
export const eventsPk = (tenant: Tenant): string => `EVENTS#${tenant.orgId}#${tenant.environment}`;
/** Sort-key prefix of events. */
export const EVENT_PREFIX = 'EVT#';
export const eventKey = (tenant: Tenant, eventId: string): ItemKey => ({ PK: eventsPk(tenant), SK: `${EVENT_PREFIX}${eventId}` });
/** An event's partition in the index GSI1 (lib/data/table.ts): the tenant's events of one type, sorted by the same `SK`. */
export const eventTypePk = (tenant: Tenant, type: string): string => `EVTYPE#${tenant.orgId}#${tenant.environment}#${type}`;

/** Sort-key prefix of a tenant's event subscriptions (docs/webhooks-outbound.md). */
export const SUBSCRIPTION_PREFIX = 'EVSUB#';
export const subscriptionSk = (subscriptionId: string): string => `${SUBSCRIPTION_PREFIX}${subscriptionId}`;
/** The tenant's count of event subscriptions (not under SUBSCRIPTION_PREFIX: `EVSUBS` has no `#`). */
export const subscriptionCountKey = (tenant: Tenant): ItemKey => ({ PK: tenantPk(tenant), SK: 'EVSUBS' });
/** A subscription's delivery log: its own partition, so deliveries spread and list newest first. */
export const eventDeliveriesPk = (tenant: Tenant, subscriptionId: string): string => `EVDEL#${tenant.orgId}#${tenant.environment}#${subscriptionId}`;
/** Sort-key prefix of delivery log items. */
export const EVENT_DELIVERY_PREFIX = 'DEL#';
export const eventDeliveryKey = (tenant: Tenant, subscriptionId: string, deliveryId: string): ItemKey => ({
  PK: eventDeliveriesPk(tenant, subscriptionId),
  SK: `${EVENT_DELIVERY_PREFIX}${deliveryId}`,
});

/** The tenant's idempotency records (Powertools writes the sort key). */
export const idempotencyPk = (tenant: Tenant): string => `IDEMPOTENCY#${tenant.orgId}#${tenant.environment}`;

// The organization partition: its own record, API keys, members and webhook endpoints.

export const orgPk = (orgId: string): string => `ORG#${orgId}`;
export const organizationKey = (orgId: string): ItemKey => ({ PK: orgPk(orgId), SK: 'ORG' });
/** Sort-key prefix of an organization's API keys. */
export const API_KEY_PREFIX = 'APIKEY#';
export const apiKeyListingKey = (orgId: string, keyId: string): ItemKey => ({ PK: orgPk(orgId), SK: `${API_KEY_PREFIX}${keyId}` });
/** The organization's count of active API keys (not under API_KEY_PREFIX: `APIKEYS` has no `#`). */
export const apiKeyCountKey = (orgId: string): ItemKey => ({ PK: orgPk(orgId), SK: 'APIKEYS' });
/** Sort-key prefix of memberships, in both the organization's and the user's partition. */
export const MEMBER_PREFIX = 'MEMBER#';
/** The organization's side of a membership. */
export const orgMemberKey = (orgId: string, userId: string): ItemKey => ({ PK: orgPk(orgId), SK: `${MEMBER_PREFIX}${userId}` });
/** Sort-key prefix of an organization's webhook endpoints. */
export const ENDPOINT_PREFIX = 'WHE#';
export const endpointListingKey = (orgId: string, endpointId: string): ItemKey => ({ PK: orgPk(orgId), SK: `${ENDPOINT_PREFIX}${endpointId}` });
/** Sort-key prefix of an organization's credential signing keys (`SIGNKEYCURRENT` has no `#`: not under it). */
export const SIGNING_KEY_PREFIX = 'SIGNKEY#';
export const signingKeyKey = (orgId: string, keyId: string): ItemKey => ({ PK: orgPk(orgId), SK: `${SIGNING_KEY_PREFIX}${keyId}` });
export const currentSigningKeyKey = (orgId: string): ItemKey => ({ PK: orgPk(orgId), SK: 'SIGNKEYCURRENT' });
/** Sort-key prefix of an organization's brand domains. */
export const DOMAIN_PREFIX = 'DOMAIN#';
export const domainKey = (orgId: string, domainId: string): ItemKey => ({ PK: orgPk(orgId), SK: `${DOMAIN_PREFIX}${domainId}` });
/** The organization's live default domain (not under DOMAIN_PREFIX: `DEFAULTDOMAIN` starts otherwise). */
export const defaultDomainKey = (orgId: string): ItemKey => ({ PK: orgPk(orgId), SK: 'DEFAULTDOMAIN' });

// Lookups by one value alone, each its own partition.

export const apiKeyHashKey = (hash: string): ItemKey => ({ PK: `APIKEY#${hash}`, SK: 'APIKEY' });
export const endpointLookupKey = (endpointId: string): ItemKey => ({ PK: `WHE#${endpointId}`, SK: 'WHE' });
/** The claim on a hostname (lower-case: DNS names are case-insensitive). */
export const hostnameClaimKey = (hostname: string): ItemKey => ({ PK: `HOST#${hostname.toLowerCase()}`, SK: 'HOST' });
/** An accepted webhook delivery, by the SHA-256 of its body or its Standard Webhooks message id. */
export const deliveryKey = (endpointId: string, key: { kind: 'sha256' | 'webhook-id'; value: string }): ItemKey => ({
  PK: `WHD#${endpointId}`,
  SK: key.kind === 'sha256' ? `SHA256#${key.value}` : `MSGID#${key.value}`,
});

// Users and their sign-in.

export const userPk = (userId: string): string => `USER#${userId}`;
export const userKey = (userId: string): ItemKey => ({ PK: userPk(userId), SK: 'USER' });
/** The user's side of a membership. */
export const userMemberKey = (userId: string, orgId: string): ItemKey => ({ PK: userPk(userId), SK: `${MEMBER_PREFIX}${orgId}` });
export const emailKey = (email: string): ItemKey => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' });
export const identityKey = (issuer: string, subject: string): ItemKey => ({ PK: `IDENTITY#${issuer}#${subject}`, SK: 'IDENTITY' });
export const sessionKey = (sessionId: string): ItemKey => ({ PK: `SESSION#${sessionId}`, SK: 'SESSION' });
export const rateLimitKey = (keyId: string, windowStart: number): ItemKey => ({ PK: `RATELIMIT#${keyId}#${windowStart}`, SK: 'RATELIMIT' });

// Scan analytics.

export const statsPk = (tenant: Tenant, productId: string): string => `STATS#${tenant.orgId}#${tenant.environment}#${productId}`;
/** A batch's scans (docs/resolver.md#scans-counted-once-at-the-resolver): a rollup partition of its own per product and lot. */
export const batchStatsPk = (tenant: Tenant, productId: string, lot: string): string => `${statsPk(tenant, productId)}#10#${lot}`;
const DAY_PREFIX = 'DAY#';
export const daySk = (day: string): string => `${DAY_PREFIX}${day}`;
/** The day (`yyyy-mm-dd`) a rollup's sort key names. */
export const dayOfSk = (sk: string): string => sk.slice(DAY_PREFIX.length);
/** A ledger item of counted scan messages: the bucket of their scan time (`yyyy-mm-ddThh:mm:s0`) and the writing batch's token. */
export const scanLedgerKey = (bucket: string, token: string): ItemKey => ({ PK: `SCANLOG#${bucket}`, SK: token });
export const scanLedgerPk = (bucket: string): string => `SCANLOG#${bucket}`;

/** A partition per spilled scan: a flood of spills while the queue is down spreads over the table's partitions. */
export const scanSpillKey = (spillId: string): ItemKey => ({ PK: `SCANSPILL#${spillId}`, SK: 'SCANSPILL' });

/** What GET /ready reads (lib/data/readiness.ts); nothing is ever stored under it. */
export const READINESS_PROBE_KEY: ItemKey = { PK: 'READY', SK: 'READY' };
