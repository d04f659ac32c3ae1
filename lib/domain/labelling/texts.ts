import bg from './texts/bg.json' with { type: 'json' };
import cs from './texts/cs.json' with { type: 'json' };
import da from './texts/da.json' with { type: 'json' };
import de from './texts/de.json' with { type: 'json' };
import el from './texts/el.json' with { type: 'json' };
import en from './texts/en.json' with { type: 'json' };
import es from './texts/es.json' with { type: 'json' };
import et from './texts/et.json' with { type: 'json' };
import fi from './texts/fi.json' with { type: 'json' };
import fr from './texts/fr.json' with { type: 'json' };
import ga from './texts/ga.json' with { type: 'json' };
import hr from './texts/hr.json' with { type: 'json' };
import hu from './texts/hu.json' with { type: 'json' };
import it from './texts/it.json' with { type: 'json' };
import lt from './texts/lt.json' with { type: 'json' };
import lv from './texts/lv.json' with { type: 'json' };
import mt from './texts/mt.json' with { type: 'json' };
import nl from './texts/nl.json' with { type: 'json' };
import pl from './texts/pl.json' with { type: 'json' };
import pt from './texts/pt.json' with { type: 'json' };
import ro from './texts/ro.json' with { type: 'json' };
import sk from './texts/sk.json' with { type: 'json' };
import sl from './texts/sl.json' with { type: 'json' };
import sv from './texts/sv.json' with { type: 'json' };
import type { Evidence } from './evidence-levels.ts';
import { DEFAULT_LANGUAGE, LANGUAGES, type Lang } from './languages.ts';

/**
 * The fixed texts of the e-label page in the 24 languages, from one JSON file per language
 * (lib/domain/labelling/texts/{lang}.json; each legal term's source in docs/labelling.md). The
 * files are imported statically, so the function bundles carry them and nothing is read at run
 * time. No npm imports.
 */

/** Every key each language file holds: no more, no fewer (test/unit/labelling-texts.test.ts). */
export const TEXT_KEYS = [
  'pageKicker',
  'wineColour_red',
  'wineColour_white',
  'wineColour_rose',
  'wineColour_orange',
  'vintage',
  'ingredients',
  'nutrition',
  'nutritionCaption',
  'nutrientColumn',
  'per100ml',
  'per100g',
  'energy',
  'fat',
  'saturates',
  'carbohydrate',
  'sugars',
  'protein',
  'salt',
  'alcohol',
  'allergens',
  'allergen_sulphites',
  'allergen_egg',
  'allergen_fish',
  'allergen_milk',
  'contains',
  'origin',
  'country',
  'region',
  'designation',
  'producers',
  'role_producer',
  'role_bottler',
  'role_importer',
  'role_distributor',
  'role_manufacturer',
  'role_recycler',
  'gtin',
  'versionPublished',
  'versionOnly',
  'notFoundTitle',
  'notFoundHeading',
  'notFoundBody',
  'notFoundHint',
  'badLinkTitle',
  'badLinkHeading',
  'badLinkBody',
  'badLinkHint',
  'withdrawnTitle',
  'withdrawnHeading',
  'withdrawnBody',
  'withdrawnHint',
  'otherLanguages',
  'languageName',
  'energyEstimated',
  'protectiveAtmosphere_bottled',
  'protectiveAtmosphere_mayBe',
  'negligibleAmounts',
  'actualAlcoholicStrength',
  'substitutableContains',
  'andOr',
  'englishAuthoritative',
] as const;
export type TextKey = (typeof TEXT_KEYS)[number];

/**
 * One text: its wording; for a legal text, the id of the rule it comes from (`source`, a row of
 * docs/labelling.md#sources) and the evidence behind its wording in this language (`evidence`,
 * docs/labelling.md#evidence). Interface texts have no rule; a translation still in doubt carries
 * evidence too.
 */
export interface TextEntry {
  text: string;
  source?: string;
  evidence?: Evidence;
}

/** The form of one language file. */
export interface TextFile {
  lang: string;
  texts: Record<string, TextEntry>;
}

/**
 * The language files, as imported (test/unit/labelling-texts.test.ts checks each against TEXT_KEYS;
 * test/unit/labelling-evidence.test.ts checks every evidence level and source, which JSON types as
 * plain strings).
 */
export const TEXT_FILES = {
  bg, cs, da, de, el, en, es, et, fi, fr, ga, hr, hu, it, lt, lv, mt, nl, pl, pt, ro, sk, sl, sv,
} as unknown as Readonly<Partial<Record<Lang, TextFile>>>;

/** The placeholders a text may hold, filled by `text()`. */
export type TextVars = Partial<Record<'year' | 'per' | 'list' | 'version' | 'date', string>>;

/**
 * The text of `key` in `lang`, its `{placeholders}` filled from `vars` (a placeholder without a
 * value stays as written). A language whose file lacks the key is a bug the unit test catches;
 * at run time such a text comes in English rather than as nothing.
 */
export function text(lang: Lang, key: TextKey, vars?: TextVars): string {
  const entry = TEXT_FILES[lang]?.texts[key] ?? TEXT_FILES[DEFAULT_LANGUAGE]?.texts[key];
  const raw = entry?.text ?? key;
  if (!vars) return raw;
  return raw.replace(/\{(year|per|list|version|date)\}/g, (whole, name: keyof TextVars) => vars[name] ?? whole);
}

/** The languages whose file is present (all 24 once the data is complete). */
export const TEXT_LANGUAGES: readonly Lang[] = LANGUAGES.filter((lang) => TEXT_FILES[lang] !== undefined);

/**
 * Keys with a source that are still no legal text: a language's name (its endonym from CLDR) names
 * the language in the page's language switch.
 */
export const NOT_LEGAL_TEXTS: ReadonlySet<TextKey> = new Set<TextKey>(['languageName']);

/** Whether `key` is a legal text in `lang`: its entry names the rule it comes from, and it is not a language's name. */
export const isLegalText = (lang: Lang, key: TextKey): boolean => !NOT_LEGAL_TEXTS.has(key) && typeof TEXT_FILES[lang]?.texts[key]?.source === 'string';
