import { eventPut } from '../data/events.ts';
import { currentLabelTermSet } from '../data/labelling-terms.ts';
import { getLabellingSettings, getSignOff, listSignOffs as listSignOffRecords, putLabelLanguages, putSignOff } from '../data/sign-offs.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import { isLang, LANGUAGES, type Lang } from '../domain/labelling/languages.ts';
import {
  newSignOff,
  signedTermsOf,
  signOffStatus,
  termInUseView,
  type CreateSignOffInput,
  type LabellingSettings,
  type PutLabellingSettingsInput,
  type SignOffStatus,
} from '../domain/labelling/sign-off.ts';
import { signedLanguages } from '../domain/labelling/signed-languages.ts';
import { termsInUse } from '../domain/labelling/terms-in-use.ts';
import type { Tenant } from '../domain/tenant.ts';
import { ConflictError, NotFoundError } from '../http/errors.ts';

/**
 * A compliance officer's sign-off of a language, and the setting that offers on the e-labels only
 * the languages signed off (docs/labelling.md#sign-off). Who may sign: a dashboard user of the
 * organization, or an API key with `labelling:write`; the sign-off records which (the user's id and
 * e-mail, the key's id and name).
 */

/** Every language's sign-off with its status against the terms as they are now (the corrections' set and the sign-offs: one read and one query). */
export async function listSignOffs(tenant: Tenant): Promise<SignOffStatus[]> {
  const [set, records] = await Promise.all([currentLabelTermSet(tenant), listSignOffRecords(tenant)]);
  return LANGUAGES.map((lang) => signOffStatus(lang, records.get(lang), signedTermsOf(lang, set.terms[lang])));
}

const langOfPath = (lang: string): Lang => {
  if (!isLang(lang)) throw new NotFoundError(`No language '${lang}': use one of ${LANGUAGES.join(', ')}.`, { param: 'lang' });
  return lang;
};

/** One language's sign-off with every term it covers, as the pages use it, with its evidence: what a sign-off now would sign. */
export async function getLanguageSignOff(tenant: Tenant, lang: string) {
  const language = langOfPath(lang);
  const [set, record] = await Promise.all([currentLabelTermSet(tenant), getSignOff(tenant, language)]);
  const terms = termsInUse(language, set.terms[language]);
  return { ...signOffStatus(language, record, signedTermsOf(language, set.terms[language])), terms: terms.map(termInUseView) };
}

/**
 * Signs off `input.lang` as its terms are now, with its `labelling.sign_off.created` event in the
 * same transaction. A language whose current sign-off still holds is answered with it, and nothing
 * is written (`created: false`); a re-opened one gets a new sign-off that replaces it. With
 * `input.digest`, terms that changed since the signer read them are a 409 naming `digest`.
 */
export async function signOff(tenant: Tenant, input: CreateSignOffInput, origin: Origin, now = new Date().toISOString()): Promise<{ created: boolean; signOff: SignOffStatus }> {
  const { lang } = input;
  const [set, existing] = await Promise.all([currentLabelTermSet(tenant), getSignOff(tenant, lang)]);
  const corrections = set.terms[lang];
  const terms = signedTermsOf(lang, corrections);
  const current = signOffStatus(lang, existing, terms);
  if (input.digest !== undefined && input.digest !== current.digest) {
    throw new ConflictError(`The terms of '${lang}' changed since they were read (their digest is now ${current.digest}): nothing was signed.`, {
      param: 'digest',
      suggestion: `Read them again (GET /v1/labelling/sign-offs/${lang}) and sign what you read.`,
    });
  }
  if (current.status === 'signed') return { created: false, signOff: current };
  const record = newSignOff(lang, terms, corrections, origin.actor, now);
  const view = signOffStatus(lang, record, terms);
  if (await putSignOff(tenant, record, [eventPut(tenant, newEvent('labelling.sign_off.created', view, origin, now))])) return { created: true, signOff: view };
  // A concurrent request signed the same terms first: its sign-off stands.
  return { created: false, signOff: signOffStatus(lang, await getSignOff(tenant, lang), terms) };
}

/** The setting and the languages whose sign-off holds now (what a version published now would offer under `signed-off`). */
export async function getSettings(tenant: Tenant): Promise<LabellingSettings> {
  const [settings, set] = await Promise.all([getLabellingSettings(tenant), currentLabelTermSet(tenant)]);
  return { labelLanguages: settings.labelLanguages, signedLanguages: signedLanguages(settings.marks, set.terms), updatedAt: settings.updatedAt ?? null };
}

/** Saves `labelLanguages`, with its `labelling.settings.updated` event in the same transaction: versions published from now on follow it. */
export async function putSettings(tenant: Tenant, input: PutLabellingSettingsInput, origin: Origin, now = new Date().toISOString()): Promise<LabellingSettings> {
  const [settings, set] = await Promise.all([getLabellingSettings(tenant), currentLabelTermSet(tenant)]);
  const view: LabellingSettings = { labelLanguages: input.labelLanguages, signedLanguages: signedLanguages(settings.marks, set.terms), updatedAt: now };
  await putLabelLanguages(tenant, input.labelLanguages, now, origin.actor, [eventPut(tenant, newEvent('labelling.settings.updated', view, origin, now))]);
  return view;
}
