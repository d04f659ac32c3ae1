import { createHash } from 'node:crypto';
import { canonicalJson } from '../json.ts';
import platformDigests from './platform-digests.json' with { type: 'json' };
import { LANGUAGES, type Lang } from './languages.ts';
import { isLegalText, type TextKey } from './texts.ts';

/**
 * Which languages an organization has signed off, as publishing decides it
 * (docs/labelling.md#sign-off): without the vocabulary, which the functions that publish leave out
 * of their bundles (docs/decisions.md#e-labels-in-24-languages-the-ingredient-vocabulary-and-the-energy-calculator).
 *
 * A language's sign-off digest (sign-off.ts) is a function of two things only: the platform's
 * wording and evidence of that language's terms, and the organization's corrections of its legal
 * texts. So a sign-off still holds exactly when both are as they were when it was given: the
 * platform's part is PLATFORM_DIGESTS (the digest of the language without corrections, generated
 * from the data and held equal to it by test/unit/labelling-sign-off.test.ts), the organization's
 * the digest of its corrections.
 */

/** The digest of each language's terms as the platform words them (no corrections): `npx tsx test/support/labelling-platform-digests.ts --write`. */
export const PLATFORM_DIGESTS: Readonly<Record<Lang, string>> = platformDigests as Record<Lang, string>;

/** The corrected texts of one language, by key (LabelTermTexts of labelling-term.ts). */
type Corrections = Partial<Record<TextKey, string>>;

/**
 * The digest of an organization's corrections of one language's legal texts (`sha256:` + 43
 * base64url characters): the corrections the language's terms in use take (termsInUse reads
 * legal texts only), so a stored correction of anything else changes nothing.
 */
export function correctionsDigest(lang: Lang, corrections: Corrections | undefined): string {
  const legal = Object.fromEntries(Object.entries(corrections ?? {}).filter(([key, text]) => typeof text === 'string' && isLegalText(lang, key as TextKey)));
  return `sha256:${createHash('sha256').update(canonicalJson(legal), 'utf8').digest('base64url')}`;
}

/** What publishing needs of a language's sign-off: the two halves of what was signed. */
export interface SignOffMark {
  /** PLATFORM_DIGESTS' value of the language when it was signed off. */
  platformDigest: string;
  /** correctionsDigest of the organization's corrections of the language when it was signed off. */
  correctionsDigest: string;
}

/** Whether the sign-off `mark` still holds for the platform as deployed and the organization's corrections `corrections`. */
export const stillSigned = (lang: Lang, mark: SignOffMark | undefined, corrections: Corrections | undefined): boolean =>
  mark !== undefined && mark.platformDigest === PLATFORM_DIGESTS[lang] && mark.correctionsDigest === correctionsDigest(lang, corrections);

/** The languages, in the order of LANGUAGES, whose sign-off still holds. */
export const signedLanguages = (marks: Partial<Record<Lang, SignOffMark>>, corrections: Partial<Record<Lang, Corrections>>): Lang[] =>
  LANGUAGES.filter((lang) => stillSigned(lang, marks[lang], corrections[lang]));
