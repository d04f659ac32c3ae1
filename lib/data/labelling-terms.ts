import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Actor } from '../domain/events.ts';
import { isLegalTerm, isTextKey, labelTermsBytes, labelTermsDigest, type LabelTermRecord, type LabelTerms, type LabelTermSetRef } from '../domain/labelling-term.ts';
import { isLang, type Lang } from '../domain/labelling/languages.ts';
import type { TextKey } from '../domain/labelling/texts.ts';
import { signedLanguages } from '../domain/labelling/signed-languages.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { LABEL_TERM_PREFIX, LABEL_TERM_SET_SK, labelTermSk, labelTermSnapshotSk, tenantPk } from './keys.ts';
import { labelTermsFromItem } from './public-reads.ts';
import { beginsWith, queryItems } from './query.ts';
import { getLabellingSettings } from './sign-offs.ts';
import { writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * An organization's corrections of legal terms (docs/labelling.md#correcting-a-term), in the
 * tenant's partition:
 * - `LABELTERM#{lang}#{termKey}`: one correction with its note and who made it (the API's read form);
 * - `LABELTERMSET`: the tenant's current corrections together, texts only (at most
 *   MAX_TERM_OVERRIDES_BYTES of texts), with their digest and a revision that every change moves:
 *   written in the same transaction as each correction, on the condition that the revision is the
 *   one read, so the budget is checked against what is stored;
 * - `LABELTERMSET#{digest}`: a set that versions were published with, written once (the first
 *   publish after a change) and never changed; a version's page item names it by `labelTermSet`.
 * Nothing of the corrections is copied into a passport version's items, whatever their size.
 */
type Item = Record<string, unknown>;

function fromItem(item: Item): LabelTermRecord | undefined {
  const { lang, termKey, text, note, updatedAt, updatedBy } = item;
  if (!isLang(lang) || typeof termKey !== 'string' || !isTextKey(termKey) || typeof text !== 'string') return undefined;
  return {
    lang,
    termKey,
    text,
    ...(typeof note === 'string' ? { note } : {}),
    updatedAt: String(updatedAt),
    updatedBy: updatedBy as Actor,
  };
}

/** The tenant's current corrections as one set. */
export interface LabelTermSet {
  terms: LabelTerms;
  /** Their texts' UTF-8 bytes (labelTermsBytes). */
  bytes: number;
  digest: string;
  /** Moves with every change; 0 while the set item was never written (corrections stored before it existed are read from their items). */
  revision: number;
  /** The digest of the last set copied to its `LABELTERMSET#{digest}` item (stored as `copiedDigest`). */
  copied?: string;
}

const setKey = (tenant: Tenant) => ({ PK: tenantPk(tenant), SK: LABEL_TERM_SET_SK });

/** A set of `terms` at `revision`. */
export const labelTermSet = (terms: LabelTerms, revision: number): LabelTermSet => ({ terms, bytes: labelTermsBytes(terms), digest: labelTermsDigest(terms), revision });

/** The corrections with `lang`/`termKey` set to `text`, or removed when `text` is undefined. */
export function withTerm(terms: LabelTerms, lang: Lang, termKey: TextKey, text: string | undefined): LabelTerms {
  const texts = { ...terms[lang] };
  if (text === undefined) delete texts[termKey];
  else texts[termKey] = text;
  const next: LabelTerms = { ...terms, [lang]: texts };
  if (Object.keys(texts).length === 0) delete next[lang];
  return next;
}

/**
 * The tenant's current set (one strongly consistent GetItem). A tenant whose corrections were stored
 * before the set item existed has them read from their items (one query) until its next change.
 */
export async function currentLabelTermSet(tenant: Tenant): Promise<LabelTermSet> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: setKey(tenant), ConsistentRead: true }));
  if (Item) {
    const terms = labelTermsFromItem(Item) ?? {};
    return { ...labelTermSet(terms, Number(Item.revision ?? 1)), ...(typeof Item.copiedDigest === 'string' ? { copied: Item.copiedDigest } : {}) };
  }
  let terms: LabelTerms = {};
  for (const record of await listLabelTerms(tenant)) if (isLegalTerm(record.lang, record.termKey)) terms = withTerm(terms, record.lang, record.termKey, record.text);
  return labelTermSet(terms, 0);
}

/** The transaction's write of the set `next`, on the condition that the stored set is still `read` (its revision). */
function putSet(tenant: Tenant, read: LabelTermSet, next: LabelTerms): TransactItem {
  const set = labelTermSet(next, read.revision + 1);
  return {
    Put: {
      TableName: tableName(),
      Item: { ...setKey(tenant), type: 'labelTermSet', terms: set.terms, bytes: set.bytes, digest: set.digest, revision: set.revision },
      ...(read.revision === 0 ? { ConditionExpression: 'attribute_not_exists(PK)' } : { ConditionExpression: 'revision = :revision', ExpressionAttributeValues: { ':revision': read.revision } }),
    },
  };
}

export async function getLabelTerm(tenant: Tenant, lang: string, termKey: string): Promise<LabelTermRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: labelTermSk(lang, termKey) } }));
  return Item ? fromItem(Item) : undefined;
}

/**
 * Puts the correction (replacing any earlier one), the tenant's set `read` with it, and `extra` (its
 * event) in one transaction: false, writing nothing, when the set changed since it was read.
 */
export async function putLabelTerm(tenant: Tenant, record: LabelTermRecord, read: LabelTermSet, extra: TransactItem[] = []): Promise<boolean> {
  return writeIfFirstHolds([
    putSet(tenant, read, withTerm(read.terms, record.lang, record.termKey, record.text)),
    { Put: { TableName: tableName(), Item: { PK: tenantPk(tenant), SK: labelTermSk(record.lang, record.termKey), type: 'labelTerm', ...record } } },
    ...extra,
  ]);
}

/**
 * Deletes the correction, removes it from the tenant's set `read` and writes `extra` (its event) in
 * one transaction: false, writing nothing, when the set changed since it was read.
 */
export async function deleteLabelTerm(tenant: Tenant, lang: Lang, termKey: TextKey, read: LabelTermSet, extra: TransactItem[] = []): Promise<boolean> {
  return writeIfFirstHolds([
    putSet(tenant, read, withTerm(read.terms, lang, termKey, undefined)),
    { Delete: { TableName: tableName(), Key: { PK: tenantPk(tenant), SK: labelTermSk(lang, termKey) } } },
    ...extra,
  ]);
}

/** Every correction of the tenant (one query: at most 24 × the legal terms per language). */
export async function listLabelTerms(tenant: Tenant): Promise<LabelTermRecord[]> {
  const page = await queryItems(beginsWith(tenantPk(tenant), LABEL_TERM_PREFIX));
  return page.items.map(fromItem).filter((record): record is LabelTermRecord => record !== undefined);
}

/**
 * What a version about to be published carries of the organization's labelling on its page item:
 * the digest of the tenant's current set of corrections (none when there are none) and, when its
 * settings say `labelLanguages: "signed-off"`, the languages whose sign-off holds
 * (docs/labelling.md#sign-off). The first publish after a change of the corrections writes the
 * set's `LABELTERMSET#{digest}` item (a PutItem of at most the budget's texts, before the version's
 * transaction, so a page never names a set that is not stored) and marks it copied; every other
 * publish reads the set item and the settings item only (two GetItems).
 */
export async function labelTermsForPages(tenant: Tenant): Promise<LabelTermSetRef> {
  const [set, settings] = await Promise.all([currentLabelTermSet(tenant), getLabellingSettings(tenant)]);
  const languages = settings.labelLanguages === 'signed-off' ? { labelLanguages: signedLanguages(settings.marks, set.terms) } : {};
  if (Object.keys(set.terms).length === 0) return languages;
  if (set.copied !== set.digest) {
    const pk = tenantPk(tenant);
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { PK: pk, SK: labelTermSnapshotSk(set.digest), type: 'labelTermSnapshot', terms: set.terms, bytes: set.bytes, digest: set.digest } }),
    );
    // Marks the set copied, unless it changed meanwhile (then the next publish copies the new one).
    const mark =
        set.revision === 0
          ? new PutCommand({
              TableName: tableName(),
              Item: { ...setKey(tenant), type: 'labelTermSet', terms: set.terms, bytes: set.bytes, digest: set.digest, revision: 1, copiedDigest: set.digest },
              ConditionExpression: 'attribute_not_exists(PK)',
            })
          : new UpdateCommand({
              TableName: tableName(),
              Key: setKey(tenant),
              UpdateExpression: 'SET copiedDigest = :digest',
              ConditionExpression: 'digest = :digest',
              ExpressionAttributeValues: { ':digest': set.digest },
            });
    await (mark instanceof PutCommand ? db().send(mark) : db().send(mark)).catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    });
  }
  return { labelTermSet: set.digest, ...languages };
}
