import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Actor } from '../domain/events.ts';
import { isLang, LANGUAGES, type Lang } from '../domain/labelling/languages.ts';
import type { LabelLanguagesSetting, SignedTerm, SignOffRecord } from '../domain/labelling/sign-off.ts';
import type { SignOffMark } from '../domain/labelling/signed-languages.ts';
import type { Tenant } from '../domain/tenant.ts';
import { db, tableName } from './client.ts';
import { LABEL_SIGN_OFF_PREFIX, LABELLING_SETTINGS_SK, labelSignOffSk, tenantPk, type ItemKey } from './keys.ts';
import { beginsWith, queryItems } from './query.ts';
import { writeIfFirstHolds, type TransactItem } from './writes.ts';

/**
 * Language sign-offs and the labelling settings (docs/labelling.md#sign-off), in the tenant's partition:
 * - `LABELSIGNOFF#{lang}`: the language's current sign-off, with each term's digest and wording (about
 *   10 KB): what the API's status and its changed terms are read from;
 * - `LABELSETTINGS`: `labelLanguages`, and for each language signed off the two digests publishing
 *   compares (`signOff#{lang}`: the platform's and the corrections'): the one item a publication
 *   reads (a few KB, one read unit), written in the same transaction as each sign-off.
 */
type Item = Record<string, unknown>;

const settingsKey = (tenant: Tenant): ItemKey => ({ PK: tenantPk(tenant), SK: LABELLING_SETTINGS_SK });
const markAttribute = (lang: Lang): string => `signOff#${lang}`;

/** What the settings item holds. */
export interface LabellingSettingsItem {
  labelLanguages: LabelLanguagesSetting;
  updatedAt?: string;
  updatedBy?: Actor;
  /** Each signed language's digests, as its latest sign-off recorded them. */
  marks: Partial<Record<Lang, SignOffMark>>;
}

const isMark = (value: unknown): value is SignOffMark =>
  typeof value === 'object' && value !== null && typeof (value as SignOffMark).platformDigest === 'string' && typeof (value as SignOffMark).correctionsDigest === 'string';

/** The tenant's settings and sign-off marks (one strongly consistent GetItem); the defaults when none were ever written. */
export async function getLabellingSettings(tenant: Tenant): Promise<LabellingSettingsItem> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: settingsKey(tenant), ConsistentRead: true }));
  const marks: Partial<Record<Lang, SignOffMark>> = {};
  for (const lang of LANGUAGES) {
    const mark = Item?.[markAttribute(lang)];
    if (isMark(mark)) marks[lang] = { platformDigest: mark.platformDigest, correctionsDigest: mark.correctionsDigest };
  }
  return {
    labelLanguages: Item?.labelLanguages === 'signed-off' ? 'signed-off' : 'all',
    ...(typeof Item?.updatedAt === 'string' ? { updatedAt: Item.updatedAt } : {}),
    ...(Item?.updatedBy ? { updatedBy: Item.updatedBy as Actor } : {}),
    marks,
  };
}

/** Saves `labelLanguages` (the marks stay as they are), with `extra` (its event) in one transaction. */
export async function putLabelLanguages(tenant: Tenant, labelLanguages: LabelLanguagesSetting, at: string, by: Actor, extra: readonly TransactItem[]): Promise<void> {
  await writeIfFirstHolds([
    {
      Update: {
        TableName: tableName(),
        Key: settingsKey(tenant),
        UpdateExpression: 'SET #type = :type, labelLanguages = :value, updatedAt = :at, updatedBy = :by',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': 'labellingSettings', ':value': labelLanguages, ':at': at, ':by': by },
      },
    },
    ...extra,
  ]);
}

function signOffFromItem(item: Item): SignOffRecord | undefined {
  const { lang, digest, platformDigest, correctionsDigest, signedAt, signedBy, terms } = item;
  if (!isLang(lang) || typeof digest !== 'string' || typeof platformDigest !== 'string' || typeof correctionsDigest !== 'string' || !Array.isArray(terms)) return undefined;
  return { lang, digest, platformDigest, correctionsDigest, signedAt: String(signedAt), signedBy: signedBy as Actor, terms: terms as SignedTerm[] };
}

/** The language's current sign-off (strongly consistent), if it has one. */
export async function getSignOff(tenant: Tenant, lang: Lang): Promise<SignOffRecord | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { PK: tenantPk(tenant), SK: labelSignOffSk(lang) }, ConsistentRead: true }));
  return Item ? signOffFromItem(Item) : undefined;
}

/** Every language's current sign-off (one strongly consistent query: at most 24 items). */
export async function listSignOffs(tenant: Tenant): Promise<Map<Lang, SignOffRecord>> {
  const page = await queryItems({ ...beginsWith(tenantPk(tenant), LABEL_SIGN_OFF_PREFIX), ConsistentRead: true });
  const records = page.items.map(signOffFromItem).filter((record): record is SignOffRecord => record !== undefined);
  return new Map(records.map((record) => [record.lang, record]));
}

/**
 * Puts the sign-off (replacing the language's earlier one), its marks on the settings item and
 * `extra` (its event) in one transaction: false, writing nothing, when the language's current
 * sign-off already has the same digest (a concurrent sign-off of the same terms).
 */
export async function putSignOff(tenant: Tenant, record: SignOffRecord, extra: readonly TransactItem[]): Promise<boolean> {
  const mark: SignOffMark = { platformDigest: record.platformDigest, correctionsDigest: record.correctionsDigest };
  return writeIfFirstHolds([
    {
      Put: {
        TableName: tableName(),
        Item: { PK: tenantPk(tenant), SK: labelSignOffSk(record.lang), type: 'labelSignOff', ...record },
        ConditionExpression: 'attribute_not_exists(PK) OR digest <> :digest',
        ExpressionAttributeValues: { ':digest': record.digest },
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: settingsKey(tenant),
        UpdateExpression: 'SET #type = :type, #mark = :mark',
        ExpressionAttributeNames: { '#type': 'type', '#mark': markAttribute(record.lang) },
        ExpressionAttributeValues: { ':type': 'labellingSettings', ':mark': mark },
      },
    },
    ...extra,
  ]);
}
