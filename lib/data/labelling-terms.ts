import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Actor } from '../domain/events.ts';
import { isLegalTerm, isTextKey, type LabelTermRecord, type LabelTerms } from '../domain/labelling-term.ts';
import { isLang } from '../domain/labelling/languages.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { LABEL_TERM_PREFIX, labelTermSk, tenantPk } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * An organization's corrections of legal terms (docs/labelling.md#correcting-a-term), one item per
 * corrected term in the tenant's partition: `LABELTERM#{lang}#{termKey}`. A tenant has at most
 * 24 languages × the legal terms of each, so one query reads them all.
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

export async function getLabelTerm(tenant: Tenant, lang: string, termKey: string): Promise<LabelTermRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: labelTermSk(lang, termKey) } }));
  return Item ? fromItem(Item) : undefined;
}

/** Puts the correction (replacing any earlier one) with `extra` (its event) in one transaction. */
export async function putLabelTerm(tenant: Tenant, record: LabelTermRecord, extra: TransactItem[] = []): Promise<void> {
  await writeIfFirstHolds([
    { Put: { TableName: tableName(), Item: { PK: tenantPk(tenant), SK: labelTermSk(record.lang, record.termKey), type: 'labelTerm', ...record } } },
    ...extra,
  ]);
}

/** Deletes the correction with `extra` (its event) in one transaction: false, writing nothing, when there was none. */
export async function deleteLabelTerm(tenant: Tenant, lang: string, termKey: string, extra: TransactItem[] = []): Promise<boolean> {
  return writeIfFirstHolds([
    { Delete: { TableName: tableName(), Key: { PK: tenantPk(tenant), SK: labelTermSk(lang, termKey) }, ConditionExpression: 'attribute_exists(PK)' } },
    ...extra,
  ]);
}

/** Every correction of the tenant (one query: at most 24 × the legal terms per language). */
export async function listLabelTerms(tenant: Tenant): Promise<LabelTermRecord[]> {
  const page = await queryItems(beginsWith(tenantPk(tenant), LABEL_TERM_PREFIX));
  return page.items.map(fromItem).filter((record): record is LabelTermRecord => record !== undefined);
}

/**
 * The corrections a version's pages carry, by language and key: what publishing copies into the
 * page item. Only keys that are still legal terms of their language; undefined when there are none.
 */
export async function labelTermsForPages(tenant: Tenant): Promise<LabelTerms | undefined> {
  const terms: LabelTerms = {};
  let any = false;
  for (const record of await listLabelTerms(tenant)) {
    if (!isLegalTerm(record.lang, record.termKey)) continue;
    (terms[record.lang] ??= {})[record.termKey] = record.text;
    any = true;
  }
  return any ? terms : undefined;
}
