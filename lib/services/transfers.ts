import { underPairLimit } from '../auth/pair-rate-limit.ts';
import { eventPut } from '../data/events.ts';
import { listHandovers } from '../data/handovers.ts';
import { listImportJobs } from '../data/imports.ts';
import { batteryIdClaimWrites } from '../data/items.ts';
import {
  batchPrefix,
  batchVersionsPrefix,
  draftSk,
  itemPrefix,
  itemVersionsPrefix,
  labelTermSnapshotSk,
  passportIdSk,
  passportVersionPrefix,
  REGISTRATION_PREFIX,
  registrationSk,
  tenantPk,
  versionPagePrefix,
  type ItemKey,
} from '../data/keys.ts';
import { getOrganization } from '../data/organizations.ts';
import { getProduct } from '../data/products.ts';
import { registrationFromItem } from '../data/registrations.ts';
import { getRegistrySettings } from '../data/registry-settings.ts';
import { GSI1 } from '../data/table.ts';
import {
  copiedTo,
  deleteIfVersion,
  deleteKeys,
  getGtinItem,
  getItemConsistent,
  getSenderCopy,
  getTransfer,
  gtinReservation,
  insertTransfer,
  listTransfers,
  productRemoval,
  putCopies,
  readRange,
  releaseOpenTransfer,
  saveMove,
  switchWrites,
  transact,
  transferTransition,
  viewAttributes,
} from '../data/transfers.ts';
import { putNew, type TransactItem } from '../data/writes.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { newSortableId } from '../domain/ids.ts';
import type { ProductRecord } from '../domain/product.ts';
import { reoIdOf } from '../domain/registry/operator.ts';
import { registrationIdOf } from '../domain/registry/registration.ts';
import type { Tenant } from '../domain/tenant.ts';
import {
  COPY_SETS,
  createTransferSchema,
  MAX_FORMER_OWNERS,
  pointingOwners,
  productAfterTransfer,
  receiverOf,
  senderOf,
  toTransferView,
  transferIdSchema,
  type CopySet,
  type MoveState,
  type TransferDirection,
  type TransferRecord,
} from '../domain/transfer.ts';
import { ConflictError, DuplicateError, NotFoundError, PermissionError, ValidationError } from '../http/errors.ts';
import { parseBody } from '../http/validation.ts';
import { identifiersOf } from './battery-items.ts';
import { requireProduct } from './products.ts';

/**
 * Transfers of a product to another organization: a change of economic operator (docs/transfers.md).
 * The sender offers (`offered`); the receiver accepts (`accepted`, the move under way, then
 * `completed`) or declines; the sender may cancel an offer not yet accepted. Each side writes only its
 * half: the offer and the cancellation are the sender's, the acceptance and the refusal the
 * receiver's; the move is the service's work in both tenants, which both agreed to.
 */

/** The time a call spends moving before it answers `accepted` (202) and leaves the rest to the next call: within the function's 29 s. */
export const MOVE_BUDGET_MS = 20_000;
/** Items a step reads, copies or deletes at once: one BatchWriteItem (docs/transfers.md#budgets). */
export const MOVE_CHUNK = 25;
/** Import jobs older than this have ended, whatever their record says (an import's chunks live 14 days; a chunk runs at most 120 s). */
const IMPORT_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/** The other organization's events are the service's own work, in the transfer's name: one organization's key id never shows in the other's log. */
const systemOrigin = (record: TransferRecord): Origin => ({ actor: { type: 'system', id: record.transferId }, requestId: null });

/** Both organizations' events of one change of the transfer: the caller's with its origin, the other's as the service's work. */
function eventsOf(type: 'transfer.offered' | 'transfer.accepted' | 'transfer.declined' | 'transfer.cancelled' | 'transfer.completed', record: TransferRecord, caller: Tenant, origin: Origin, now: string): TransactItem[] {
  return [senderOf(record), receiverOf(record)].map((tenant) =>
    eventPut(tenant, newEvent(type, toTransferView(record, tenant), tenant.orgId === caller.orgId ? origin : systemOrigin(record), now)),
  );
}

/**
 * 409 when the product takes part in a battery handover that its move would break
 * (docs/transfers.md#limits): one offered, or a waste handover whose recipient answers for
 * the battery's passport through the sender's tenant. Reads the sender's handovers (all of them: one
 * Query, a page of 100 at a time).
 */
async function refuseOpenHandovers(tenant: Tenant, product: ProductRecord): Promise<void> {
  let after: string | undefined;
  do {
    const page = await listHandovers(tenant, 'out', 100, after);
    const open = page.records.find((h) => h.from.productId === product.productId && (h.status === 'offered' || (h.status === 'accepted' && h.operation === 'waste' && h.recycledAt === undefined)));
    if (open) {
      throw new ConflictError(
        `The product's battery ${open.from.serial} is in handover ${open.handoverId} (${open.status === 'offered' ? 'offered' : 'a waste battery its recipient answers for'}): a transfer would break it.`,
        { param: 'productId', suggestion: open.status === 'offered' ? 'Cancel the handover (DELETE /v1/handovers/{handoverId}) or let it be accepted first.' : 'Transfer the product once the battery is recycled.' },
      );
    }
    after = page.hasMore ? page.records.at(-1)?.handoverId : undefined;
  } while (after);
}

/** 409 while an items import of the product runs in the sender's tenant: its chunks write the product's items without reading the product again. */
async function refuseRunningImport(tenant: Tenant, product: ProductRecord, now: number): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const page = await listImportJobs(tenant, 100, after);
    for (const job of page.jobs) {
      if (Date.parse(job.createdAt) < now - IMPORT_LOOKBACK_MS) return;
      if (job.type === 'items' && job.productId === product.productId && (job.status === 'queued' || job.status === 'running')) {
        throw new ConflictError(`An import of the product's items (${job.importId}) is still running: accept the transfer once it has finished.`, {
          param: 'transferId',
          suggestion: 'Follow it with GET /v1/imports/{importId} (the sender sees it) and accept again.',
        });
      }
    }
    if (!page.hasMore) return;
    after = page.jobs.at(-1)?.importId;
  }
}

/** `POST /v1/transfers`: the owning organization offers one of its products; both organizations' logs get transfer.offered. */
export async function offerTransfer(tenant: Tenant, body: unknown, origin: Origin): Promise<TransferRecord> {
  const input = parseBody(createTransferSchema, body);
  if (input.toOrgId === tenant.orgId) throw new ValidationError('toOrgId must be another organization: a product is transferred to the economic operator that takes it over.', 'toOrgId');
  const product = await requireProduct(tenant, input.productId, 'productId');
  if (!(await getOrganization(input.toOrgId))) {
    throw new ValidationError(`No organization '${input.toOrgId}' on the platform.`, 'toOrgId', 'Ask the receiving organization for its organization id (the dashboard shows it under Settings).');
  }
  if ((product.formerOwners?.length ?? 0) >= MAX_FORMER_OWNERS) {
    throw new ConflictError(`The product has belonged to ${product.formerOwners?.length} organizations before you: a product is transferred at most ${MAX_FORMER_OWNERS} times.`, { param: 'productId' });
  }
  await refuseOpenHandovers(tenant, product);
  await underPairLimit(tenant.orgId, input.toOrgId);
  const now = new Date().toISOString();
  const record: TransferRecord = {
    transferId: newSortableId('tr'),
    environment: tenant.environment,
    status: 'offered',
    productId: product.productId,
    gtin: product.gtin,
    productName: product.name,
    category: product.category,
    from: { orgId: tenant.orgId },
    to: { orgId: input.toOrgId },
    createdAt: now,
    updatedAt: now,
  };
  if ((await insertTransfer(record, eventsOf('transfer.offered', record, tenant, origin, now))) === 'open') {
    throw new ConflictError('The product is in another transfer already: one transfer of a product at a time.', {
      param: 'productId',
      suggestion: 'Cancel that transfer (POST /v1/transfers/{transferId}/cancel) or wait for it to end; GET /v1/transfers lists it.',
    });
  }
  return record;
}

/** A transfer the tenant is a party to, and its side; 404 for anyone else (and for a path segment that is no transfer id). */
async function requireTransfer(tenant: Tenant, transferId: string, consistent = false): Promise<{ record: TransferRecord; side: 'out' | 'in' }> {
  const found = transferIdSchema.safeParse(transferId).success ? await getTransfer(tenant, transferId, consistent) : undefined;
  if (!found) throw new NotFoundError(`No transfer '${transferId}'.`, { param: 'transferId' });
  return found;
}

/** `GET /v1/transfers/{transferId}`. The receiver of a transfer under way sees the move's progress, which the sender's copy keeps. */
export async function readTransfer(tenant: Tenant, transferId: string): Promise<TransferRecord> {
  const { record, side } = await requireTransfer(tenant, transferId);
  if (side === 'in' && record.status === 'accepted') {
    const move = (await getSenderCopy(record))?.move;
    return move ? { ...record, move } : record;
  }
  return record;
}

/** `GET /v1/transfers`: outgoing, incoming, or both, oldest first. */
export const listTransfersOf = (tenant: Tenant, direction: TransferDirection | undefined, limit: number, startingAfter?: string) =>
  listTransfers(tenant, direction === 'outgoing' ? ['out'] : direction === 'incoming' ? ['in'] : ['out', 'in'], limit, startingAfter);

const notOffered = (record: TransferRecord, action: string) =>
  new ConflictError(`The transfer '${record.transferId}' is ${record.status}: only an offered transfer can be ${action}.`, { param: 'transferId' });

const ATTEMPTS = 3;

/**
 * Ends an offer without a move: the receiver declines, or the sender cancels. Both copies change on
 * the condition that the transfer is still offered, the product's open-transfer claim is released and
 * both logs get the event, in one transaction. Ending it again answers it as it is.
 */
async function endOffer(tenant: Tenant, transferId: string, origin: Origin, as: 'declined' | 'cancelled'): Promise<TransferRecord> {
  for (let attempt = 1; ; attempt++) {
    const { record, side } = await requireTransfer(tenant, transferId, true);
    if (as === 'declined' && side === 'out') throw new PermissionError('Only the receiving organization declines a transfer: the sender may cancel it (POST /v1/transfers/{transferId}/cancel).');
    if (as === 'cancelled' && side === 'in') throw new PermissionError('Only the sending organization cancels a transfer: the receiver may decline it (POST /v1/transfers/{transferId}/decline).');
    if (record.status === as) return record;
    if (record.status !== 'offered') throw notOffered(record, as);
    await underPairLimit(tenant.orgId, side === 'out' ? record.to.orgId : record.from.orgId);
    const now = new Date().toISOString();
    const next: TransferRecord = { ...record, status: as, updatedAt: now, ...(as === 'declined' ? { declinedAt: now } : { cancelledAt: now }) };
    const outcome = await transact([...transferTransition(next, 'offered'), releaseOpenTransfer(next), ...eventsOf(as === 'declined' ? 'transfer.declined' : 'transfer.cancelled', next, tenant, origin, now)]);
    if (outcome.written) return next;
    if (attempt >= ATTEMPTS) throw notOffered(record, as);
  }
}

/** `POST /v1/transfers/{transferId}/decline`: the receiver refuses the offer; nothing moves. */
export const declineTransfer = (tenant: Tenant, transferId: string, origin: Origin) => endOffer(tenant, transferId, origin, 'declined');
/** `POST /v1/transfers/{transferId}/cancel`: the sender withdraws its offer; nothing moves. */
export const cancelTransfer = (tenant: Tenant, transferId: string, origin: Origin) => endOffer(tenant, transferId, origin, 'cancelled');

/** Whether the product has a registration in the sender's tenant (one filtered Query; it reads the tenant's registrations until it finds one). */
async function hasRegistrations(sender: Tenant, productId: string): Promise<boolean> {
  if (!(await getRegistrySettings(sender))) return false;
  return (await readRange(sender, REGISTRATION_PREFIX, undefined, 1, { name: 'productId', value: productId })).items.length > 0;
}

/** What a call of accept did: the transfer as it stands, and whether its move has finished. */
export interface AcceptOutcome {
  record: TransferRecord;
  finished: boolean;
}

/**
 * `POST /v1/transfers/{transferId}/accept`, by the receiving organization. An offered transfer is
 * accepted in one transaction (docs/transfers.md#limits): both copies accepted with the product as
 * it is (its record on the sender's copy), the sender's product item deleted on the condition that it
 * is unchanged (from then on the sender's API answers 404 for it, and no write of the sender reaches
 * it), the receiver's GTIN reserved, and both logs' transfer.accepted. The move then runs for at most
 * MOVE_BUDGET_MS; what is left is done by the next call (an accepted transfer's accept continues its
 * move; a completed one's answers it). Refused before anything is written: the sender (403), a
 * transfer no longer offered (409), a receiver with a product of the GTIN (409 naming gtin), a
 * product with registrations when the receiver has not turned registration on (409 naming enabled),
 * a running import of the product's items (409).
 */
export async function acceptTransfer(tenant: Tenant, transferId: string, origin: Origin): Promise<AcceptOutcome> {
  for (let attempt = 1; ; attempt++) {
    const { record, side } = await requireTransfer(tenant, transferId, true);
    if (side === 'out') throw new PermissionError('Only the receiving organization accepts a transfer: the sender may cancel it (POST /v1/transfers/{transferId}/cancel).');
    if (record.status === 'completed') return { record, finished: true };
    if (record.status === 'accepted') return continueMove(record, tenant, origin);
    if (record.status !== 'offered') throw notOffered(record, 'accepted');
    const sender = senderOf(record);
    const product = await getProduct(sender, record.productId, true);
    if (!product) throw new ConflictError('The product of this transfer no longer exists in the sending organization.', { param: 'transferId' });
    const gtinItem = await getGtinItem(tenant, record.gtin);
    if (gtinItem && (typeof gtinItem.movedTo !== 'string' || typeof gtinItem.reservedBy === 'string')) {
      throw new DuplicateError(`You have a product with GTIN ${record.gtin} already: a GTIN is one product per organization.`, { param: 'gtin', suggestion: 'Decline the transfer, or settle with the sender which product is which.' });
    }
    if (await hasRegistrations(sender, record.productId)) {
      const settings = await getRegistrySettings(tenant);
      if (!settings?.enabled) {
        throw new ConflictError('The product has registrations in the EU registry: turn registration on (PUT /v1/registry/settings, with your operator identity) before accepting, so that its entries are updated with you as the economic operator.', {
          param: 'enabled',
          suggestion: 'docs/transfers.md#registrations',
        });
      }
    }
    const now = Date.now();
    await refuseRunningImport(sender, product, now);
    await refuseOpenHandovers(sender, product);
    const senderGtin = await getGtinItem(sender, record.gtin);
    if (!senderGtin || typeof senderGtin.movedTo === 'string') throw new ConflictError('The product of this transfer no longer holds its GTIN in the sending organization.', { param: 'transferId' });
    if (attempt === 1) await underPairLimit(tenant.orgId, record.from.orgId);
    const at = new Date(now).toISOString();
    const move: MoveState = { phase: 'copy', copySet: COPY_SETS[0], copied: 0, registrations: 0, deleted: 0 };
    const accepted: TransferRecord = { ...record, status: 'accepted', acceptedAt: at, updatedAt: at, product, move };
    const outcome = await transact([
      ...transferTransition(accepted, 'offered'),
      productRemoval(sender, product),
      gtinReservation(tenant, record.gtin, record.transferId, viewAttributes(senderGtin)),
      ...eventsOf('transfer.accepted', accepted, tenant, origin, at),
    ]);
    if (outcome.written) {
      // The acceptance is written: a move that stops at once (a battery identifier the receiver holds) answers the accepted transfer and why (202), not a refusal.
      try {
        return await continueMove(accepted, tenant, origin);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        return { record: (await getSenderCopy(accepted)) ?? accepted, finished: false };
      }
    }
    const failed = outcome.reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
    // The receiver's GTIN became a product of its own between the check and the transaction.
    if (failed === 3) throw new DuplicateError(`You have a product with GTIN ${record.gtin} already: a GTIN is one product per organization.`, { param: 'gtin' });
    // The transfer or the product changed meanwhile (cancelled, the product updated): decided again from a fresh read.
    if (attempt >= ATTEMPTS) throw new ConflictError('The product kept changing while the transfer was accepted; nothing was changed.', { param: 'transferId', suggestion: 'Accept again.' });
  }
}

// ---- The move (docs/transfers.md#the-move) -------------------------------------------------------

type Item = Record<string, unknown>;

/** The key of a stored item. */
const keyOf = (item: Item): ItemKey => ({ PK: String(item.PK), SK: String(item.SK) });

/** Where each copy set lives in the product's partition. */
function prefixOf(set: CopySet, record: TransferRecord): string {
  switch (set) {
    case 'passports':
      return passportVersionPrefix(record.productId);
    case 'pages':
      return versionPagePrefix(record.gtin);
    case 'batches':
      return batchPrefix(record.gtin);
    case 'batchVersions':
      return batchVersionsPrefix(record.gtin);
    case 'items':
      return itemPrefix(record.gtin);
    case 'itemVersions':
      return itemVersionsPrefix(record.gtin);
    case 'draft':
      return draftSk(record.productId);
  }
}

/** The items a stored item brings with it: a passport version's id pointer, an item's battery identifier claims (as writes, for `tenant`). */
function passportIdItem(receiver: Tenant, version: Item): Item {
  return { PK: tenantPk(receiver), SK: passportIdSk(String(version.passportId)), type: 'passportId', productId: version.productId, version: version.version };
}

const claimOwner = (item: Item) => ({ gtin: String(item.gtin), serial: String(item.serial) });

/**
 * Copies one chunk of `set` after `after` into the receiver's tenant: the items as they are (the sort
 * key and every attribute: versions keep their digests and links), a passport version's id pointer,
 * the set of corrected legal terms a page names, and a battery item's identifier claims, each on the
 * condition that the receiver holds no other battery's (a conflict stops the move: `blocked`).
 */
async function copyChunk(record: TransferRecord, set: CopySet, after: string | undefined): Promise<{ count: number; last?: string; done: boolean }> {
  const sender = senderOf(record);
  const receiver = receiverOf(record);
  const page = await readRange(sender, prefixOf(set, record), after, MOVE_CHUNK);
  // The draft's prefix is its key: a longer key under it is no draft of this product.
  const items = set === 'draft' ? page.items.filter((item) => item.SK === draftSk(record.productId)) : page.items;
  const copies: Item[] = items.map((item) => copiedTo(receiver, item));
  if (set === 'passports') copies.push(...items.filter((item) => typeof item.passportId === 'string').map((item) => passportIdItem(receiver, item)));
  if (set === 'pages') {
    const digests = [...new Set(items.flatMap((item) => (typeof item.labelTermSet === 'string' ? [item.labelTermSet] : [])))];
    for (const digest of digests) {
      const terms = await getItemConsistent({ PK: tenantPk(sender), SK: labelTermSnapshotSk(digest) });
      if (terms) copies.push(copiedTo(receiver, terms));
    }
  }
  if (set === 'items') {
    const claims = items.flatMap((item) => batteryIdClaimWrites(receiver, claimOwner(item), [], identifiersOf(item.data)));
    for (let i = 0; i < claims.length; i += 100) {
      const outcome = await transact(claims.slice(i, i + 100));
      if (!outcome.written) throw await claimConflict(claims.slice(i, i + 100), outcome.reasons.map((reason) => reason.Code), record);
    }
  }
  await putCopies(copies);
  return { count: copies.length, ...(page.last === undefined ? {} : { last: page.last }), done: page.done };
}

/** The 409 of a battery identifier the receiver's own battery holds: it names both batteries; the move stops there until the receiver changes its battery's. */
async function claimConflict(claims: readonly TransactItem[], codes: readonly (string | undefined)[], record: TransferRecord): Promise<ConflictError> {
  const index = codes.findIndex((code) => code === 'ConditionalCheckFailed');
  const claim: Item = claims[index]?.Put?.Item ?? {};
  const held = claim.PK === undefined ? undefined : await getItemConsistent({ PK: String(claim.PK), SK: String(claim.SK) });
  const field = String(claim.field ?? 'batteryPassportIdentifier');
  const message = `The ${field} '${String(claim.value ?? '')}' of the transferred battery ${String(claim.serial ?? '')} is already the ${field} of your battery '${String(held?.serial ?? '')}' (GTIN ${String(held?.gtin ?? '')}): each battery's is its own in your organization.`;
  const blocked = `${message} Change it on your battery, then accept again.`;
  const current = await getSenderCopy(record);
  if (current?.move) await saveMove(current, { ...current.move, blocked }, current.move.phase);
  return new ConflictError(message, { param: 'transferId', suggestion: `Change the ${field} of your battery (PATCH …/items/{serial}), then accept the transfer again: the move goes on from where it stopped.` });
}

/** The receiver's registration of a moved one: the receiver's id for the same identifier, its operator, back to the pre-checks (a deactivated entry stays so), the registry's id kept. */
function movedRegistration(raw: Item, receiver: Tenant, reoId: string | undefined, now: string): Item | undefined {
  const record = registrationFromItem(raw);
  if (!record) return undefined;
  const {
    PK: _pk, SK: _sk, [GSI1.partitionKey]: _due, correlationId: _c, submittedAt: _s, registeredAt: _r, proofExpiresAt: _p, proofRenewedAt: _pr,
    claimedAt: _cl, notBefore: _n, sendRetries: _sr, deactivation: _d, ...kept
  } = raw;
  const registrationId = registrationIdOf(receiver.orgId, receiver.environment, record.entry.upi);
  return {
    ...kept,
    PK: tenantPk(receiver),
    SK: registrationSk(registrationId),
    registrationId,
    entry: { ...record.entry, ...(reoId === undefined ? {} : { reoId }) },
    status: record.status === 'deactivated' ? 'deactivated' : 'pending_checks',
    reasons: [],
    warnings: [],
    transferredFrom: { orgId: String(raw.PK).split('#')[1], registrationId: record.registrationId },
    updatedAt: now,
    version: 1,
  };
}

/**
 * Moves one registration (docs/transfers.md#registrations): the receiver's record put where none of
 * its id is, the sender's deleted on the condition that it is the version read, in one transaction. A
 * sender's record the outbox changed meanwhile is read again; one already moved (a retry) is only
 * deleted.
 */
async function moveRegistration(receiver: Tenant, raw: Item, reoId: string | undefined, now: string): Promise<void> {
  let current: Item | undefined = raw;
  for (let attempt = 1; current && attempt <= ATTEMPTS; attempt++) {
    const moved = movedRegistration(current, receiver, reoId, now);
    const key = keyOf(current);
    const remove = deleteIfVersion(key, current.version);
    if (!moved) {
      await transact([remove]);
      return;
    }
    const outcome = await transact([putNew(moved), remove]);
    if (outcome.written) return;
    if (outcome.reasons[0]?.Code === 'ConditionalCheckFailed') {
      // The receiver has it already (an earlier attempt): only the sender's is left to delete.
      const deleted = await transact([remove]);
      if (deleted.written) return;
    }
    current = await getItemConsistent(key);
  }
}

/** The chunk of the cleanup: the sender's copies of one set deleted, with what they brought (id pointers, claims). */
async function deleteChunk(record: TransferRecord, set: CopySet): Promise<number> {
  const sender = senderOf(record);
  const page = await readRange(sender, prefixOf(set, record), undefined, MOVE_CHUNK);
  const items = set === 'draft' ? page.items.filter((item) => item.SK === draftSk(record.productId)) : page.items;
  if (items.length === 0) return 0;
  const keys = items.map(keyOf);
  if (set === 'passports') keys.push(...items.filter((item) => typeof item.passportId === 'string').map((item) => ({ PK: tenantPk(sender), SK: passportIdSk(String(item.passportId)) })));
  if (set === 'items') {
    const claims = items.flatMap((item) => batteryIdClaimWrites(sender, claimOwner(item), identifiersOf(item.data), []));
    // A claim another battery of the sender holds now is not this item's: it stays (the condition).
    for (let i = 0; i < claims.length; i += 100) await transact(claims.slice(i, i + 100));
  }
  await deleteKeys(keys);
  return items.length;
}

const nextSet = (set: CopySet): CopySet | undefined => COPY_SETS[COPY_SETS.indexOf(set) + 1];

/**
 * One step of the move from the sender's copy as stored: a chunk copied, the switch, a chunk of
 * registrations moved, a chunk deleted, or the completion. Each step is written on the condition that
 * the move is where it was read, so two calls at once never set it back; copies are puts of the same
 * items and deletions of the same keys, so a step done twice does no harm.
 */
async function moveStep(current: TransferRecord, caller: Tenant, origin: Origin): Promise<void> {
  const move = current.move as MoveState;
  const product = current.product as ProductRecord;
  const { blocked: _blocked, ...progress } = move;
  if (move.phase === 'copy') {
    const set = move.copySet ?? COPY_SETS[0];
    const chunk = await copyChunk(current, set, move.copyAfter);
    const copied = progress.copied + chunk.count;
    if (!chunk.done) {
      await saveMove(current, { ...progress, copySet: set, ...(chunk.last === undefined ? {} : { copyAfter: chunk.last }), copied }, 'copy');
      return;
    }
    const following = nextSet(set);
    if (following) {
      const { copyAfter: _after, ...rest } = progress;
      await saveMove(current, { ...rest, copySet: following, copied }, 'copy');
      return;
    }
    // Every set is in the receiver's tenant: the switch.
    const senderGtin = await getGtinItem(senderOf(current), current.gtin);
    if (!senderGtin || typeof senderGtin.movedTo === 'string') throw new Error(`The sender's GTIN item of transfer ${current.transferId} is not the product's view.`);
    const { copyAfter: _after, copySet: _set, ...rest } = progress;
    const now = new Date().toISOString();
    const owners = pointingOwners(product, current).filter((orgId) => orgId !== current.from.orgId);
    await transact(switchWrites(current, productAfterTransfer(product, current), senderGtin, owners, { ...rest, phase: 'registrations', copied }, now));
    return;
  }
  if (move.phase === 'registrations') {
    const sender = senderOf(current);
    const receiver = receiverOf(current);
    const settings = await getRegistrySettings(receiver);
    const reoId = settings ? reoIdOf(settings.operator) : undefined;
    const page = await readRange(sender, REGISTRATION_PREFIX, move.copyAfter, MOVE_CHUNK, { name: 'productId', value: current.productId });
    const now = new Date().toISOString();
    for (const raw of page.items) await moveRegistration(receiver, raw, reoId, now);
    const registrations = progress.registrations + page.items.length;
    const { copyAfter: _after, ...rest } = progress;
    if (!page.done) await saveMove(current, { ...rest, ...(page.last === undefined ? {} : { copyAfter: page.last }), registrations }, 'registrations');
    else await saveMove(current, { ...rest, phase: 'cleanup', copySet: COPY_SETS[0], registrations }, 'registrations');
    return;
  }
  // cleanup
  const set = move.copySet ?? COPY_SETS[0];
  const deleted = await deleteChunk(current, set);
  if (deleted > 0) {
    await saveMove(current, { ...progress, copySet: set, deleted: progress.deleted + deleted }, 'cleanup');
    return;
  }
  const following = nextSet(set);
  if (following) {
    await saveMove(current, { ...progress, copySet: following }, 'cleanup');
    return;
  }
  const now = new Date().toISOString();
  const done: TransferRecord = { ...current, status: 'completed', completedAt: now, updatedAt: now, move: progress };
  await transact([...transferTransition(done, 'accepted'), releaseOpenTransfer(done), ...eventsOf('transfer.completed', done, caller, origin, now)]);
}

/**
 * Runs the move of an accepted transfer from where it stands, step by step, until it is completed or
 * MOVE_BUDGET_MS has passed (then the next call of accept goes on). Each step reads the sender's copy
 * again (consistent): the move's state is there, never only in this call's memory.
 */
export async function continueMove(record: TransferRecord, caller: Tenant, origin: Origin, budgetMs = MOVE_BUDGET_MS): Promise<AcceptOutcome> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const current = await getSenderCopy(record);
    if (!current) throw new Error(`The sender's copy of transfer ${record.transferId} is missing.`);
    if (current.status === 'completed') return { record: current, finished: true };
    if (current.status !== 'accepted' || !current.move || !current.product) throw new ConflictError(`The transfer '${record.transferId}' is ${current.status}.`, { param: 'transferId' });
    if (Date.now() >= deadline) return { record: current, finished: false };
    await moveStep(current, caller, origin);
  }
}
