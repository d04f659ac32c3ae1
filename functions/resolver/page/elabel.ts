import type { Lineage } from '../../../lib/domain/unit.ts';
import { pageWords } from '../../../lib/domain/battery/texts.ts';
import { text, text as labelText, type TextKey, type TextVars } from '../../../lib/domain/labelling/texts.ts';
import { findAllergenWords, type AllergenWordMatch } from '../../../lib/domain/labelling/allergen-words.ts';
import { isProcessingAid } from '../../../lib/domain/labelling/processing-aids.ts';
import { categoryById, ingredientByCode, type Allergen } from '../../../lib/domain/labelling/vocabulary.ts';
import { FORMAT_LOCALES } from '../../../lib/domain/labelling/languages.ts';
import { energyUnits, GRAM_ROUNDING, hasAtMostOneDecimal, NEGLIGIBLE_NUTRIENTS, roundEnergy, SUB_NUTRIENTS, type NegligibleNutrient } from '../../../lib/domain/nutrition.ts';
import { isWine } from '../../../lib/domain/wine.ts';
// While a language's legal wording is not all confirmed, a page in Irish says the English text is authoritative (docs/labelling.md#irish).
import { englishIsAuthoritative } from '../../../lib/domain/labelling/confirmed.ts';
import type { LabelTermTexts } from '../../../lib/domain/labelling-term.ts';
import type { Ingredient, Nutrition, Passport } from '../../../lib/domain/passport.ts';
import { countryName, DEFAULT_LANGUAGE, formatDate, formatNumber, type Lang } from './i18n.ts';
import { documentShell, html, languageSwitcher, SafeHtml, section, separated, type Fragment } from './html.ts';
import { UNAVAILABLE_TEXTS } from './unavailable-texts.ts';

/** The shared page helpers (html.ts), as the e-label's callers have imported them from here. */
export { CONTENT_SECURITY_POLICY, escapeHtml } from './html.ts';

type WineColour = 'red' | 'white' | 'rose' | 'orange';
type Translate = (key: TextKey, vars?: TextVars) => string;

// U+00A0 keeps "100 ml" together when lines wrap; U+202F, the narrow no-break space, keeps French
// "Contient :" together as French typography sets it before ":", ";", "!" and "?".
const NBSP = '\u00a0';
const NNBSP = '\u202f';
const KEEP_TOGETHER = /(\d) (?=(?:ml|g)\b)|[ \u00a0](?=[:;!?](?:\s|$))/g;

/** The space French sets before a colon or semicolon (a narrow no-break space), none elsewhere: "additifs : …", "acidity regulator: …". */
const spaceBeforePunctuation = (lang: Lang): string => (lang === 'fr' ? NNBSP : '');

/**
 * The texts of one language, with the non-breaking spaces of typography (100 ml, "Contient :").
 * `terms` are the organization's corrections of legal terms stored with the version (docs/labelling.md#correcting-a-term):
 * preferred to the platform's wording, their placeholders filled the same way.
 */
const translator =
  (lang: Lang, terms?: LabelTermTexts): Translate =>
  (key, vars) => {
    const corrected = terms?.[key];
    const raw =
      typeof corrected === 'string'
        ? corrected.replace(/\{(year|per|list|version|date)\}/g, (whole, name: keyof TextVars) => vars?.[name] ?? whole)
        : text(lang, key, vars);
    return raw.replace(KEEP_TOGETHER, (_whole, digit: string | undefined) => (digit === undefined ? NNBSP : `${digit}${NBSP}`));
  };

/**
 * The consumer e-label page (docs/api.md#the-public-resolver-and-its-e-label-page): a complete, self-contained HTML document
 * per passport, rendered on the server. No scripts, no external resources, no cookies: the only
 * bytes the browser gets are this document, styled by one inline stylesheet whose hash the
 * Content-Security-Policy names. The shared page parts (escaping, stylesheet, CSP, document
 * shell) are in html.ts.
 */

/** A translated text with `{list}` replaced by markup (the text escaped, the markup kept). */
function substituted(template: string, list: Fragment): SafeHtml {
  const [before = '', ...rest] = template.split('{list}');
  return html`${before}${list}${rest.join('{list}')}`;
}

// ---------------------------------------------------------------------------------------------
// Ingredients: allergen words are emphasised (Regulation (EU) 1169/2011 art. 21(1)(b)). Vocabulary
// entries carry their allergen; free text is searched for the allergen words of every language
// (lib/domain/labelling/allergen-words.json), and a producer may mark words with **…**.

/** The allergen's term in the page's language ("sulphites"), which a name such as "E 220" needs beside it. */
type TermOf = (allergen: Allergen) => string;

/**
 * Free text with allergen words in <strong>: text outside `**…**` is searched for them. A name that
 * is not the allergen's term (E 220, lysozyme, casein: AllergenWord.needsTerm) is never emphasised
 * alone: it stays plain, and the first of an allergen whose term the ingredient lacks (`withTerm`)
 * is followed by the term at the end of its name (up to the next comma, semicolon or parenthesis):
 * "E 220 (<strong>sulphites</strong>)", "metabisolfito di potassio (<strong>solfiti</strong>)"
 * (docs/labelling.md#free-text-allergens).
 */
function emphasiseWords(text: string, lang: Lang, wine: boolean, withTerm: Set<Allergen>, termOf: TermOf): Fragment[] {
  const marks: { at: number; end: number; markup: SafeHtml }[] = [];
  for (const match of findAllergenWords(text, lang, wine)) {
    const end = match.index + match.text.length;
    if (!match.needsTerm) marks.push({ at: match.index, end, markup: html`<strong>${match.text}</strong>` });
    else if (!withTerm.has(match.allergen)) {
      withTerm.add(match.allergen);
      const delimiter = text.slice(end).search(/[,;()]/);
      const nameEnd = delimiter < 0 ? text.length : end + delimiter;
      const at = end + text.slice(end, nameEnd).trimEnd().length;
      marks.push({ at, end: at, markup: html` (<strong>${termOf(match.allergen)}</strong>)` });
    }
  }
  marks.sort((a, b) => a.at - b.at);
  const parts: Fragment[] = [];
  let last = 0;
  for (const mark of marks) {
    if (mark.at < last) continue;
    parts.push(text.slice(last, mark.at), mark.markup);
    last = mark.end;
  }
  parts.push(text.slice(last));
  return parts;
}

/** The allergens whose term free text gives somewhere, the producer's `**…**` included. */
const termsIn = (matches: readonly AllergenWordMatch[]): Set<Allergen> => new Set(matches.filter((match) => !match.needsTerm).map((match) => match.allergen));

/**
 * Free text as the page shows it: `**word**` in <strong> (the producer's own emphasis; a `**`
 * without its pair stays as written), allergen words in <strong> elsewhere, a name that needs its
 * term followed by it. Everything is escaped.
 */
export function emphasiseAllergens(text: string, lang: Lang = DEFAULT_LANGUAGE, wine = true, termOf: TermOf = (allergen) => labelText(lang, `allergen_${allergen}`)): SafeHtml {
  const withTerm = termsIn(findAllergenWords(text, lang, wine));
  const parts: Fragment[] = [];
  let rest = text;
  for (;;) {
    const open = rest.indexOf('**');
    const close = open < 0 ? -1 : rest.indexOf('**', open + 2);
    if (close < 0 || rest.slice(open + 2, close).trim() === '') {
      if (close < 0) break;
      // "****" or "** **": nothing to emphasise; keep the first "**" as written and go on after it.
      parts.push(...emphasiseWords(rest.slice(0, open + 2), lang, wine, withTerm, termOf));
      rest = rest.slice(open + 2);
      continue;
    }
    parts.push(...emphasiseWords(rest.slice(0, open), lang, wine, withTerm, termOf), html`<strong>${rest.slice(open + 2, close)}</strong>`);
    rest = rest.slice(close + 2);
  }
  parts.push(...emphasiseWords(rest, lang, wine, withTerm, termOf));
  return html`${parts}`;
}

// ---------------------------------------------------------------------------------------------
// Sections

const isPresent = (value: unknown): boolean =>
  value !== undefined && value !== null && (typeof value !== 'string' || value.trim() !== '');

const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

const grams = (value: number, lang: Lang, decimals = 2) => `${formatNumber(value, lang, decimals)}${NBSP}g`;

/**
 * Free text in the best language it is given in: the page's, then English, then the first given
 * (docs/resolver.md#the-page-language).
 */
function freeText(texts: Partial<Record<Lang, string>>, lang: Lang): { text: string; lang: Lang } | undefined {
  const given = (value: string | undefined): value is string => typeof value === 'string' && value.trim() !== '';
  for (const candidate of [lang, DEFAULT_LANGUAGE, ...(Object.keys(texts) as Lang[])]) {
    const value = texts[candidate];
    if (given(value)) return { text: value, lang: candidate };
  }
  return undefined;
}

interface ListedIngredient {
  /** The vocabulary category id, for grouping ("Acidity regulator: tartaric acid"). */
  category?: string;
  name: string;
  /** A vocabulary entry's allergen; free text has none (its allergen words are found in it). */
  allergen?: Allergen;
  /** The vocabulary name is itself the allergen's term (Reg. (EU) 2019/33 Annex I Part A): bold as it is. */
  annexTerm?: boolean;
  /** Free text, searched for allergen words and `**…**`. */
  free?: boolean;
  /** The language of free text shown in another language than the page's (for `lang` on its element). */
  lang?: Lang;
  /** One of a run of substitutable additives, listed as "contains … and/or …" (Reg. (EU) 2019/33 Art. 48a(5)). */
  substitutable?: boolean;
  /** A vocabulary processing aid (a fining agent: lib/domain/labelling/processing-aids.ts), listed after the additives. */
  processingAid?: boolean;
}

/** One ingredient in the page's language; undefined for one with nothing to show (a stored null, an unknown code). */
function listedIngredient(ingredient: Ingredient | null | undefined, lang: Lang): ListedIngredient | undefined {
  if (typeof ingredient === 'string') return isPresent(ingredient) ? { name: ingredient, free: true } : undefined;
  if (!ingredient || typeof ingredient !== 'object') return undefined;
  if (typeof ingredient.code === 'string') {
    const entry = ingredientByCode(ingredient.code);
    if (!entry) return undefined;
    return {
      ...(entry.category ? { category: entry.category } : {}),
      name: entry.names[lang] ?? entry.names.en,
      ...(entry.allergen ? { allergen: entry.allergen } : {}),
      ...(entry.annexTerm ? { annexTerm: true } : {}),
      ...(ingredient.substitutable === true ? { substitutable: true } : {}),
      ...(isProcessingAid(entry.code) ? { processingAid: true } : {}),
    };
  }
  const chosen = ingredient.text && typeof ingredient.text === 'object' ? freeText(ingredient.text, lang) : undefined;
  if (!chosen) return undefined;
  return { name: chosen.text, free: true, ...(chosen.lang === lang ? {} : { lang: chosen.lang }) };
}

/** Whether the page is a wine's (lib/domain/wine.ts: its category or its productType). */
const isWinePage = (view: Passport): boolean => isWine(view.category, view.data.productType);

/** The packaging-gas category, which "bottled in a protective atmosphere" replaces (Reg. (EU) 2019/33 Art. 48a(6)). */
const PACKAGING_GAS = 'packagingGas';

/**
 * A name in the middle of the list with its first letter in lower case ("grapes, acidity regulator:
 * tartaric acid"), except in German, whose nouns keep their capital ("Trauben, Säureregulator: …").
 */
const midList = (name: string, lang: Lang): string => (lang === 'de' ? name : `${name.charAt(0).toLocaleLowerCase(lang)}${name.slice(1)}`);

/** The ingredients the page lists, in the page's language, and where each comes from. */
interface IngredientList {
  /** Ingredients and additives in the producer's order, the packaging gases left out when the phrase replaces them. */
  main: ListedIngredient[];
  /** The processing aids shown: those that carry an allergen, and the others only when the passport asks. */
  aids: ListedIngredient[];
  /** "Bottled in a protective atmosphere", when set (Art. 48a(6)). */
  phrase?: string;
}

function ingredientList(view: Passport, lang: Lang, t: Translate): IngredientList {
  const atmosphere = view.data.protectiveAtmosphere;
  const phrase =
    atmosphere === 'bottled' ? t('protectiveAtmosphere_bottled') : atmosphere === 'may-be-bottled' ? t('protectiveAtmosphere_mayBe') : undefined;
  const wine = isWinePage(view);
  const listed = (view.data.ingredients ?? [])
    .map((ingredient) => listedIngredient(ingredient, lang))
    .filter((item) => item !== undefined)
    .filter((item) => phrase === undefined || item.category !== PACKAGING_GAS)
    // Fish-derived fining agents are not an allergen in wine (Annex II point 4(b)); no vocabulary entry is one, but stay safe.
    .map((item) => (wine && item.allergen === 'fish' ? { ...item, allergen: undefined } : item));
  const listAll = view.data.listNonAllergenicProcessingAids === true;
  return {
    main: listed.filter((item) => !item.processingAid),
    // Reg. (EU) No 1169/2011 Art. 20 does not require processing aids; Art. 21 (and for wine Reg. (EU) 2019/33 Art. 41(1)) requires the allergenic ones.
    aids: listed.filter((item) => item.processingAid && (item.allergen !== undefined || listAll)),
    ...(phrase === undefined ? {} : { phrase }),
  };
}

/**
 * The allergens the list of ingredients shows: its vocabulary entries' and the allergen words of
 * its free text in the page's language (a name that needs its term is shown with it).
 */
function listedAllergens(list: IngredientList, lang: Lang, wine: boolean): Set<Allergen> {
  const shown = new Set<Allergen>();
  for (const item of [...list.main, ...list.aids]) {
    if (item.allergen) shown.add(item.allergen);
    if (item.free) for (const match of findAllergenWords(item.name, item.lang ?? lang, wine)) shown.add(match.allergen);
  }
  return shown;
}

/**
 * The ingredient list as one sentence (docs/labelling.md#order-of-the-list): each ingredient in the
 * page's language, in the producer's order; consecutive additives of one category gathered after its
 * name ("acidity regulator: tartaric acid, citric acid"; Regulation (EU) No 1169/2011 Annex VII Part
 * C), the group ended by a semicolon when more follows, so that what comes next does not read as one
 * of them; the protective-atmosphere phrase in place of the packaging gases (Art. 48a(6)); then the
 * processing aids that carry an allergen. Allergens in <strong>: a vocabulary name that is not an
 * allergen term is followed by the term in parentheses ("potassium metabisulphite
 * (<strong>sulphites</strong>)").
 */
function ingredientsSection(view: Passport, list: IngredientList, lang: Lang, t: Translate): SafeHtml | undefined {
  const { main, aids, phrase } = list;
  if (main.length === 0 && aids.length === 0 && phrase === undefined) return undefined;
  const wine = isWinePage(view);
  const termOf: TermOf = (allergen) => t(`allergen_${allergen}`);
  const name = (item: ListedIngredient) => {
    if (item.free) {
      const emphasised = emphasiseAllergens(item.name, item.lang ?? lang, wine, termOf);
      return item.lang ? html`<span lang="${item.lang}">${emphasised}</span>` : emphasised;
    }
    if (!item.allergen) return item.name;
    if (item.annexTerm) return html`<strong>${item.name}</strong>`;
    return html`${item.name} (<strong>${termOf(item.allergen)}</strong>)`;
  };
  // A run of substitutable additives inside a category's group becomes one "contains A and/or B" (wine only).
  const runs = (items: ListedIngredient[]): (ListedIngredient | ListedIngredient[])[] => {
    const out: (ListedIngredient | ListedIngredient[])[] = [];
    for (const item of items) {
      const last = out.at(-1);
      if (wine && item.substitutable && Array.isArray(last)) last.push(item);
      else out.push(wine && item.substitutable ? [item] : item);
    }
    return out;
  };
  const groups: { category?: string; items: ListedIngredient[] }[] = [];
  for (const item of main) {
    const previous = groups.at(-1);
    if (item.category !== undefined && previous?.category === item.category) previous.items.push(item);
    else groups.push({ ...(item.category === undefined ? {} : { category: item.category }), items: [item] });
  }
  const andOr = ` ${t('andOr')} `;
  const space = spaceBeforePunctuation(lang);
  // Each part of the sentence, and whether it is a category's group (whose end a semicolon marks).
  const parts: { markup: SafeHtml; group: boolean }[] = groups.map((group, index) => {
    const named = group.category === undefined ? undefined : categoryById(group.category)?.names[lang];
    const categoryName = named === undefined || index === 0 ? named : midList(named, lang);
    const items = runs(group.items).map((run, runIndex) => {
      const shown = Array.isArray(run)
        ? substituted(t('substitutableContains'), run.map((item, itemIndex) => html`${itemIndex > 0 && andOr}${name(item)}`))
        : name(run);
      return html`${runIndex > 0 && ', '}${shown}`;
    });
    return { markup: html`${categoryName !== undefined && `${categoryName}${space}: `}${items}`, group: categoryName !== undefined };
  });
  if (phrase !== undefined) parts.push({ markup: html`${parts.length === 0 ? phrase : midList(phrase, lang)}`, group: false });
  for (const item of aids) parts.push({ markup: html`${name(item)}`, group: false });
  const sentence = parts.map((part, index) => {
    const previous = parts[index - 1];
    const separator = previous === undefined ? '' : previous.group ? `${space}; ` : ', ';
    return html`${separator}${part.markup}`;
  });
  return section('ingredients', t('ingredients'), html`<p>${sentence}</p>`);
}

/**
 * kJ and kcal rounded to whole units (docs/labelling.md#energy-and-rounding): a unit the producer
 * left out computed from the nutrients with its Annex XIV factors when they suffice, else converted
 * from the other (1 kcal = 4.184 kJ); lib/domain/nutrition.ts energyUnits.
 */
export function energyValues(nutrition: Nutrition, productType?: string, category?: string): { kj: number; kcal: number } | undefined {
  const energy = energyUnits(nutrition, productType, category);
  return energy && { kj: roundEnergy(energy.kj).value, kcal: roundEnergy(energy.kcal).value };
}

/**
 * A nutrient's name as it stands in the middle of a sentence ("Contains negligible amounts of
 * fat, saturates and salt"): its row name without the "of which" of a sub-row (the part before
 * ": " in es and pt; else the leading words the saturates and sugars rows share, words compared by
 * their first four letters so that Maltese "li minnu" / "li minnhom" count as one), in lower case
 * except in German, whose nouns keep their capital. German takes the dative after "von".
 */
function midSentenceName(key: TextKey, lang: Lang, t: Translate): string {
  const whole = MID_SENTENCE[lang]?.[key];
  if (whole !== undefined) return whole;
  const name = t(key);
  let bare = name;
  const colon = name.indexOf(': ');
  if (colon >= 0) bare = name.slice(colon + 2);
  else if (key === 'saturates' || key === 'sugars') {
    const stem = (word: string | undefined) => (word ?? '').toLocaleLowerCase(lang).slice(0, 4);
    const [a, b] = [t('saturates').split(' '), t('sugars').split(' ')];
    let shared = 0;
    while (shared < a.length - 1 && shared < b.length - 1 && stem(a[shared]) === stem(b[shared])) shared++;
    bare = name.split(' ').slice(shared).join(' ');
  }
  if (lang !== 'de') return bare.toLocaleLowerCase(lang);
  return GERMAN_DATIVE[bare] ?? bare;
}

/**
 * Where the row name with its "of which" taken off is only an adjective ("saturat", "κορεσμένα"),
 * the statement names the nutrient whole. Unconfirmed wording (docs/labelling.md#evidence).
 */
const MID_SENTENCE: Readonly<Partial<Record<Lang, Partial<Record<TextKey, string>>>>> = {
  mt: { saturates: 'xaħam saturat' },
  el: { saturates: 'κορεσμένα λιπαρά' },
};

/** The German plural forms that change after "von" (dative): "von gesättigten Fettsäuren", "von Kohlenhydraten". */
const GERMAN_DATIVE: Readonly<Record<string, string>> = { 'gesättigte Fettsäuren': 'gesättigten Fettsäuren', Kohlenhydrate: 'Kohlenhydraten' };

/** The nutrients the producer declared negligible (Art. 34(5)), in the declaration's order; unknown entries of stored data ignored. */
function negligibleOf(nutrition: Nutrition): Set<string> {
  const listed = Array.isArray(nutrition.negligible) ? nutrition.negligible : [];
  return new Set(NEGLIGIBLE_NUTRIENTS.filter((nutrient) => listed.includes(nutrient)));
}

/**
 * "Contains negligible amounts of fat, saturates and salt" in the page's language, the names
 * joined with the language's "and" (Intl.ListFormat); undefined when none is declared negligible.
 */
export function negligibleStatement(nutrition: Nutrition, lang: Lang): string | undefined {
  const t = translator(lang);
  const nutrients = [...negligibleOf(nutrition)] as (typeof NEGLIGIBLE_NUTRIENTS)[number][];
  if (nutrients.length === 0) return undefined;
  const list = new Intl.ListFormat(FORMAT_LOCALES[lang], { type: 'conjunction', style: 'long' }).format(nutrients.map((nutrient) => midSentenceName(nutrient, lang, t)));
  return t('negligibleAmounts', { list });
}

/**
 * The nutrition declaration (Regulation (EU) No 1169/2011 Art. 30(1), Annex XV): energy and the six
 * nutrients only, no alcohol row (alcohol is not part of it; `alcoholG` feeds the calculator).
 * Nutrients declared negligible have no row but one statement under the table (Art. 34(5)).
 * Stored data may be incomplete: a missing value has no row.
 */
function nutritionSection(view: Passport, lang: Lang, t: Translate): SafeHtml | undefined {
  const nutrition = view.data.nutrition;
  if (!nutrition) return undefined;
  const rows: SafeHtml[] = [];
  const energy = energyValues(nutrition, typeof view.data.productType === 'string' ? view.data.productType : undefined, view.category);
  if (energy) {
    const value = `${formatNumber(energy.kj, lang, 0)}${NBSP}kJ / ${formatNumber(energy.kcal, lang, 0)}${NBSP}kcal`;
    const calculated = nutrition.energyCalculated === true ? ` (${t('energyEstimated')})` : '';
    rows.push(html`<tr><th scope="row">${t('energy')}</th><td>${value}${calculated}</td></tr>`);
  }
  const negligible = negligibleOf(nutrition);
  const gramRows: [keyof typeof GRAM_ROUNDING, (typeof NEGLIGIBLE_NUTRIENTS)[number], boolean][] = [
    ['fatG', 'fat', false],
    ['saturatedFatG', 'saturates', true],
    ['carbohydratesG', 'carbohydrate', false],
    ['sugarsG', 'sugars', true],
    ['proteinG', 'protein', false],
    ['saltG', 'salt', false],
  ];
  const shown = new Set<NegligibleNutrient>();
  for (const [field, key, sub] of gramRows) {
    if (negligible.has(key)) continue;
    const value = nutrition[field];
    if (!isAmount(value)) continue;
    // An "of which" row stands only under its nutrient's row (publishing refuses it otherwise; stored data may have one).
    if (sub && !shown.has(SUB_NUTRIENTS[key as keyof typeof SUB_NUTRIENTS])) continue;
    shown.add(key);
    const rounded = GRAM_ROUNDING[field](value);
    rows.push(html`<tr${sub && new SafeHtml(' class="sub"')}><th scope="row">${t(key)}</th><td>${grams(rounded.value, lang, rounded.decimals)}</td></tr>`);
  }
  const statement = negligibleStatement(nutrition, lang);
  if (rows.length === 0 && statement === undefined) return undefined;
  // A wine's declaration is per 100 ml (Reg. (EU) No 1169/2011 Art. 32(2)), by its category or its productType.
  const per = isWinePage(view) ? t('per100ml') : t('per100g');
  const table =
    rows.length > 0 &&
    html`<table>
<caption>${t('nutritionCaption', { per })}</caption>
<thead><tr><th scope="col">${t('nutrientColumn')}</th><th scope="col">${per}</th></tr></thead>
<tbody>
${rows.map((row) => html`${row}\n`)}</tbody>
</table>`;
  return section('nutrition', t('nutrition'), html`${table}${statement !== undefined && html`\n<p>${statement}</p>`}`);
}

/**
 * The actual alcoholic strength, "12,5 % vol" in the language's notation (Regulation (EU) No
 * 1169/2011 Annex XII: at most one decimal, then "% vol"), as its own line under the heading:
 * outside the nutrition declaration. Undefined when not given (or not a valid stored figure).
 */
export function alcoholLine(view: Passport, lang: Lang, t: Translate = translator(lang)): SafeHtml | undefined {
  const abv = view.data.alcoholByVolume;
  if (!isAmount(abv) || abv < 0 || abv > 100) return undefined;
  const value = `${formatNumber(abv, lang, hasAtMostOneDecimal(abv) ? 1 : 2)}${NBSP}%${NBSP}vol`;
  return html`<p class="meta">${t('actualAlcoholicStrength')} ${value}</p>`;
}

const ALLERGEN_FLAGS: [keyof NonNullable<Passport['data']['allergens']>, Allergen][] = [
  ['containsSulphites', 'sulphites'],
  ['containsEgg', 'egg'],
  ['containsFish', 'fish'],
  ['containsMilk', 'milk'],
];

/**
 * "Contains: …" from the allergen flags, only for allergens the list of ingredients does not show
 * (docs/labelling.md#no-allergen-box-beside-a-list): without a list it is the allergen statement
 * (Reg. (EU) No 1169/2011 Art. 21(1), second subparagraph); beside a list it would repeat it, which
 * Art. 21(1) and the Commission Notice 2017/C 428/01 rule out, so a page whose list carries every
 * flagged allergen has none. Publishing refuses a wine's flag that no ingredient carries; a stored
 * one, or a food's, still shows here. A wine never shows fish: its only fish-derived substances are
 * fining agents, which Annex II point 4(b) exempts (publishing refuses the flag on a wine; a stored
 * one is not printed).
 */
function allergensSection(view: Passport, listed: ReadonlySet<Allergen>, t: Translate): SafeHtml | undefined {
  const allergens = view.data.allergens;
  if (!allergens) return undefined;
  const wine = isWinePage(view);
  const contained = ALLERGEN_FLAGS.filter(([flag, key]) => allergens[flag] === true && !(wine && key === 'fish') && !listed.has(key)).map(([, key]) => t(`allergen_${key}`));
  if (contained.length === 0) return undefined;
  return section('allergens', t('allergens'), html`<p><strong>${t('contains', { list: contained.join(', ') })}</strong></p>`, 'card allergens');
}

function originSection(view: Passport, lang: Lang, t: Translate): SafeHtml | undefined {
  const origin = view.data.origin;
  if (!origin) return undefined;
  const entries: [string, string][] = [];
  if (isPresent(origin.country)) entries.push([t('country'), countryName(origin.country as string, lang)]);
  if (isPresent(origin.region)) entries.push([t('region'), origin.region as string]);
  if (isPresent(origin.designation)) entries.push([t('designation'), origin.designation as string]);
  if (entries.length === 0) return undefined;
  return section('origin', t('origin'), html`<dl>${entries.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`);
}

const ROLES = new Set(['producer', 'bottler', 'importer', 'distributor', 'manufacturer', 'recycler']);

function producersSection(view: Passport, lang: Lang, t: Translate): SafeHtml | undefined {
  const producers = (view.data.producers ?? []).filter((producer) => producer && isPresent(producer.name));
  if (producers.length === 0) return undefined;
  const items = producers.map((producer) => {
    const role = producer.role && ROLES.has(producer.role) ? t(`role_${producer.role}`) : undefined;
    const country = isPresent(producer.country) ? countryName(producer.country as string, lang) : undefined;
    const details = [role, country].filter((part): part is string => part !== undefined);
    return html`<li><span class="producer-name">${producer.name}</span>${details.length > 0 && html`<span class="producer-detail">${separated(details)}</span>`}</li>`;
  });
  return section('producers', t('producers'), html`<ul class="producers">${items}</ul>`);
}

const COLOURS = new Set<string>(['red', 'white', 'rose', 'orange'] satisfies WineColour[]);

function wineMeta(view: Passport, t: Translate): SafeHtml | undefined {
  if (!isWinePage(view)) return undefined;
  const parts: string[] = [];
  if (view.data.colour && COLOURS.has(view.data.colour)) parts.push(t(`wineColour_${view.data.colour}`));
  if (isAmount(view.data.vintage)) parts.push(t('vintage', { year: String(view.data.vintage) }));
  if (parts.length === 0) return undefined;
  return html`<p class="meta">${separated(parts)}</p>`;
}

/** A batch's or item's page names its lot and serial as GS1 prints them under a barcode, `(10) L1 (21) S1`: the same in every language. */
export interface UnitLine {
  lot?: string;
  serial?: string;
  /** A battery's second-life links (docs/battery.md#second-life): the battery page shows them. */
  lineage?: Lineage;
}

function footer(view: Passport, lang: Lang, t: Translate, unit?: UnitLine): SafeHtml {
  const version = String(view.version);
  const date = formatDate(view.lastUpdated, lang);
  const versionLine = isAmount(view.version) ? (date ? t('versionPublished', { version, date }) : t('versionOnly', { version })) : undefined;
  const unitLine = [unit?.lot === undefined ? '' : `(10) ${unit.lot}`, unit?.serial === undefined ? '' : `(21) ${unit.serial}`].filter(Boolean).join(' ');
  return html`<footer>
${versionLine && html`<p>${versionLine}</p>`}
${isPresent(view.gtin) && html`<p>${t('gtin')} <span class="gtin" translate="no">${view.gtin}</span></p>`}
${unitLine !== '' && html`<p class="unit" translate="no">${unitLine}</p>`}
</footer>`;
}

// ---------------------------------------------------------------------------------------------
// Pages

/**
 * The e-label page of a published passport, in the given language, with the organization's corrected terms stored with the version;
 * its language links go to `languages`, those the version offers (docs/labelling.md#sign-off).
 */
export function renderElabel(view: Passport, lang: Lang, terms?: LabelTermTexts, unit?: UnitLine, languages?: readonly Lang[]): string {
  const t = translator(lang, terms);
  const list = ingredientList(view, lang, t);
  const sections = [
    ingredientsSection(view, list, lang, t),
    allergensSection(view, listedAllergens(list, lang, isWinePage(view)), t),
    nutritionSection(view, lang, t),
    originSection(view, lang, t),
    producersSection(view, lang, t),
  ];
  const body = html`<main>
<header class="intro">
<p class="kicker">${t('pageKicker')}</p>
<h1>${view.name}</h1>
${wineMeta(view, t)}
${alcoholLine(view, lang, t)}
${englishIsAuthoritative(lang) && html`<p class="meta">${t('englishAuthoritative')}</p>`}
</header>
${sections}${languageSwitcher(lang, t('otherLanguages'), languages)}</main>
${footer(view, lang, t, unit)}`;
  return documentShell(lang, `${view.name} · ${t('pageKicker')}`, body);
}

function messagePage(lang: Lang, title: string, heading: string, paragraphs: string[]): string {
  const t = translator(lang);
  const body = html`<main>
<header class="intro">
<p class="kicker">${t('pageKicker')}</p>
<h1>${heading}</h1>
</header>
<div class="card">
${paragraphs.map((text) => html`<p>${text}</p>\n`)}</div>
</main>`;
  return documentShell(lang, title, body);
}

/** For a browser that scanned an unknown or unpublished code (served with 404). */
export function renderNotFound(lang: Lang): string {
  const t = translator(lang);
  return messagePage(lang, t('notFoundTitle'), t('notFoundHeading'), [t('notFoundBody'), t('notFoundHint')]);
}

/** For a syntactically invalid Digital Link (served with 400). */
export function renderBadLink(lang: Lang): string {
  const t = translator(lang);
  return messagePage(lang, t('badLinkTitle'), t('badLinkHeading'), [t('badLinkBody'), t('badLinkHint')]);
}

/** While a service the resolver depends on is down (served with 503 and Retry-After, docs/resolver.md#when-a-dependency-is-down). */
export function renderUnavailable(lang: Lang): string {
  const t = UNAVAILABLE_TEXTS[lang];
  return messagePage(lang, t.title, t.heading, [t.body, t.hint]);
}

/** For a product its producer withdrew (served with 410; the texts are in every language). */
export function renderWithdrawn(lang: Lang): string {
  const t = translator(lang);
  return messagePage(lang, t('withdrawnTitle'), t('withdrawnHeading'), [t('withdrawnBody'), t('withdrawnHint')]);
}

/**
 * For a battery recycled at the end of its life, whose passport has ceased (served with 410, in
 * every language; docs/battery.md#a-batterys-life): not the page of a withdrawal, which is its
 * producer's, for a mistake or a recall.
 */
export function renderRecycled(lang: Lang): string {
  const words = pageWords(lang);
  return messagePage(lang, words.recycledTitle, words.recycledHeading, [words.recycledBody]);
}
