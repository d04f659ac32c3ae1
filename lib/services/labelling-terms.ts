import { eventPut } from '../data/events.ts';
import { currentLabelTermSet, deleteLabelTerm, getLabelTerm, listLabelTerms, putLabelTerm, withTerm } from '../data/labelling-terms.ts';
import { newEvent, type Origin } from '../domain/events.ts';
import {
  isLegalTerm,
  isTextKey,
  labelTermsBytes,
  legalTermKeys,
  MAX_TERM_OVERRIDES_BYTES,
  NOT_CORRECTABLE,
  overBudgetMessage,
  placeholdersOf,
  platformEntry,
  toLabelTermView,
  type LabelTerm,
  type LabelTermRecord,
  type PutLabelTermInput,
} from '../domain/labelling-term.ts';
import { isLang, LANGUAGES, type Lang } from '../domain/labelling/languages.ts';
import type { TextKey } from '../domain/labelling/texts.ts';
import type { Tenant } from '../domain/tenant.ts';
import { ConflictError, NotFoundError, ValidationError } from '../http/errors.ts';

/**
 * Corrections of the e-label's legal terms (docs/labelling.md#correcting-a-term). A path that names
 * no language of the 24 or no text key is a 404 (param `lang` or `termKey`); a text key that is an
 * interface text, not a legal term, is a 422 naming `termKey`.
 */
export function resolveTerm(lang: string, termKey: string): { lang: Lang; termKey: TextKey } {
  if (!isLang(lang)) throw new NotFoundError(`No language '${lang}': use one of ${LANGUAGES.join(', ')}.`, { param: 'lang' });
  if (!isTextKey(termKey)) throw new NotFoundError(`No e-label text '${termKey}'.`, { param: 'termKey', suggestion: 'GET /v1/labelling/terms lists the legal terms.' });
  if (NOT_CORRECTABLE.has(termKey)) {
    throw new ValidationError(
      `'${termKey}' is the language's name in the page's language switch, not a legal term: it cannot be corrected.`,
      'termKey',
      'GET /v1/labelling/terms lists the legal terms.',
    );
  }
  if (!isLegalTerm(lang, termKey)) {
    throw new ValidationError(
      `'${termKey}' is an interface text, not a legal term: only legal terms (those with a source) can be corrected.`,
      'termKey',
      'GET /v1/labelling/terms lists the legal terms.',
    );
  }
  return { lang, termKey };
}

export async function getTerm(tenant: Tenant, lang: string, termKey: string): Promise<LabelTerm> {
  const term = resolveTerm(lang, termKey);
  return toLabelTermView(term.lang, term.termKey, await getLabelTerm(tenant, term.lang, term.termKey));
}

/**
 * Sets the tenant's wording of a legal term, with its `labelling_term.updated` event in the same
 * transaction. The platform text's placeholders ({list}) must all be kept, and no other added.
 */
export async function setTerm(tenant: Tenant, lang: string, termKey: string, input: PutLabelTermInput, origin: Origin, now = new Date().toISOString()): Promise<LabelTerm> {
  const term = resolveTerm(lang, termKey);
  const platformText = platformEntry(term.lang, term.termKey)?.text ?? '';
  const wanted = placeholdersOf(platformText);
  const given = placeholdersOf(input.text);
  if (wanted.join() !== given.join()) {
    const missing = wanted.filter((p) => !given.includes(p));
    throw new ValidationError(
      missing.length
        ? `text must keep the placeholder${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of the platform text ("${platformText}").`
        : `text may hold only the placeholders of the platform text (${wanted.join(', ') || 'none'}).`,
      'text',
      wanted.length ? `Write ${wanted.join(', ')} where the page fills in its value, as in "${platformText}".` : 'Remove the {…} placeholder.',
    );
  }
  const record: LabelTermRecord = {
    lang: term.lang,
    termKey: term.termKey,
    text: input.text,
    ...(input.note ? { note: input.note } : {}),
    updatedAt: now,
    // Who, as the term's read form documents it: the actor's type and id (its name stays in the event).
    updatedBy: { type: origin.actor.type, id: origin.actor.id },
  };
  const view = toLabelTermView(term.lang, term.termKey, record);
  const event = eventPut(tenant, newEvent('labelling_term.updated', view, origin, now));
  // The tenant's corrections are one set, within a budget: checked against the set as stored, and
  // written with it on the condition that it has not changed since (lib/data/labelling-terms.ts).
  for (let attempt = 1; attempt <= SET_ATTEMPTS; attempt++) {
    const set = await currentLabelTermSet(tenant);
    const total = labelTermsBytes(withTerm(set.terms, term.lang, term.termKey, input.text));
    // Over the budget is refused unless the change makes the total smaller (a set stored before the budget).
    if (total > MAX_TERM_OVERRIDES_BYTES && total > set.bytes) {
      throw new ValidationError(overBudgetMessage(total), 'text', 'Shorten this text, or remove corrections that are no longer needed (DELETE /v1/labelling/terms/{lang}/{termKey}).');
    }
    if (await putLabelTerm(tenant, record, set, [event])) return view;
  }
  throw busy();
}

/** How often a correction is tried against a set that changes under it before the caller is asked to retry. */
const SET_ATTEMPTS = 5;
/** 409 when the set kept changing under the write (docs/labelling.md#correcting-a-term): nothing was changed, and sending it again may win. */
const busy = () =>
  new ConflictError("The organization's corrections were changed by several requests at once; nothing was changed.", { param: 'termKey', suggestion: 'Send the correction again.' });

/**
 * Removes the tenant's wording: the platform's shows again on versions published afterwards.
 * With the `labelling_term.deleted` event in the same transaction; removing what is not there
 * answers the term as it is and writes nothing.
 */
export async function clearTerm(tenant: Tenant, lang: string, termKey: string, origin: Origin, now = new Date().toISOString()): Promise<LabelTerm> {
  const term = resolveTerm(lang, termKey);
  const view = toLabelTermView(term.lang, term.termKey, undefined);
  const event = eventPut(tenant, newEvent('labelling_term.deleted', view, origin, now));
  for (let attempt = 1; attempt <= SET_ATTEMPTS; attempt++) {
    const set = await currentLabelTermSet(tenant);
    if (set.terms[term.lang]?.[term.termKey] === undefined) return view;
    if (await deleteLabelTerm(tenant, term.lang, term.termKey, set, [event])) return view;
  }
  throw busy();
}

/** Every legal term of `langs` (in that order, each language's in the order of the texts), with the tenant's corrections. */
export async function listTerms(tenant: Tenant, langs: readonly Lang[], status?: LabelTerm['status']): Promise<LabelTerm[]> {
  const overrides = new Map((await listLabelTerms(tenant)).map((r) => [`${r.lang}#${r.termKey}`, r]));
  return langs
    .flatMap((lang) => legalTermKeys(lang).map((key) => toLabelTermView(lang, key, overrides.get(`${lang}#${key}`))))
    .filter((term) => status === undefined || term.status === status);
}
