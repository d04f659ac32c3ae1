import type { SupplierRole } from '../../../lib/domain/passport.ts';

/**
 * Fixed labels of the e-label page in the languages it is offered in, plus the locale-aware
 * formatting (numbers, dates, country names) and Accept-Language negotiation the page needs.
 * Pure functions: no AWS, no I/O.
 */

export const LANGUAGES = ['en', 'de', 'fr'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Lang = 'en';

export type WineColour = 'red' | 'white' | 'rose' | 'orange';
export type AllergenKey = 'sulphites' | 'egg' | 'fish' | 'milk';

export interface Labels {
  /** Small line above the product name, also the second half of the <title>. */
  pageKicker: string;
  wineColour: Record<WineColour, string>;
  vintage: (year: string) => string;

  ingredients: string;

  nutrition: string;
  /** Table caption, e.g. "Average values per 100 ml". */
  nutritionCaption: (per: string) => string;
  nutrientColumn: string;
  per100ml: string;
  per100g: string;
  energy: string;
  fat: string;
  saturates: string;
  carbohydrate: string;
  sugars: string;
  protein: string;
  salt: string;
  alcohol: string;

  allergens: string;
  allergenNames: Record<AllergenKey, string>;
  /** "Contains: sulphites, egg" — the list is already joined. */
  contains: (list: string) => string;

  origin: string;
  country: string;
  region: string;
  designation: string;

  producers: string;
  roles: Record<SupplierRole, string>;

  gtin: string;
  versionPublished: (version: string, date: string) => string;
  versionOnly: (version: string) => string;

  notFoundTitle: string;
  notFoundHeading: string;
  notFoundBody: string;
  notFoundHint: string;
  badLinkTitle: string;
  badLinkHeading: string;
  badLinkBody: string;
  badLinkHint: string;
  withdrawnTitle: string;
  withdrawnHeading: string;
  withdrawnBody: string;
  withdrawnHint: string;
}

/** Each language's own name for itself (for a language switch). */
export const LANGUAGE_NAMES: Readonly<Record<Lang, string>> = { en: 'English', de: 'Deutsch', fr: 'Français' };

// U+00A0 keeps "100 ml" and French "Contient :" together when lines wrap.
const NBSP = '\u00a0';

const en: Labels = {
  pageKicker: 'Product information',
  wineColour: { red: 'Red wine', white: 'White wine', rose: 'Rosé wine', orange: 'Orange wine' },
  vintage: (year) => `Vintage ${year}`,
  ingredients: 'Ingredients',
  nutrition: 'Nutrition declaration',
  nutritionCaption: (per) => `Average values ${per}`,
  nutrientColumn: 'Nutrient',
  per100ml: `per 100${NBSP}ml`,
  per100g: `per 100${NBSP}g`,
  energy: 'Energy',
  fat: 'Fat',
  saturates: 'of which saturates',
  carbohydrate: 'Carbohydrate',
  sugars: 'of which sugars',
  protein: 'Protein',
  salt: 'Salt',
  alcohol: 'Alcohol',
  allergens: 'Allergens',
  allergenNames: { sulphites: 'sulphites', egg: 'egg', fish: 'fish', milk: 'milk' },
  contains: (list) => `Contains: ${list}`,
  origin: 'Origin',
  country: 'Country',
  region: 'Region',
  designation: 'Designation',
  producers: 'Producers',
  roles: {
    producer: 'Producer',
    bottler: 'Bottler',
    importer: 'Importer',
    distributor: 'Distributor',
    manufacturer: 'Manufacturer',
    recycler: 'Recycler',
  },
  gtin: 'GTIN',
  versionPublished: (version, date) => `Version ${version}, published ${date}`,
  versionOnly: (version) => `Version ${version}`,
  notFoundTitle: 'Product information not available',
  notFoundHeading: "This product's information is not available",
  notFoundBody: 'We could not find published information for the code you scanned. It may not have been published yet.',
  notFoundHint: 'Please check the label on the package, or scan the code again later.',
  badLinkTitle: 'Invalid product link',
  badLinkHeading: 'This link is not a valid product code',
  badLinkBody: 'The address you opened does not identify a product.',
  badLinkHint: 'If you typed it, please check it for typing mistakes; otherwise scan the QR code on the package again.',
  withdrawnTitle: 'Product withdrawn',
  withdrawnHeading: 'This product has been withdrawn',
  withdrawnBody: "The producer has withdrawn this product's information. It is no longer offered.",
  withdrawnHint: 'If you have questions about this product, please contact its producer or the shop where you bought it.',
};

const de: Labels = {
  pageKicker: 'Produktinformation',
  wineColour: { red: 'Rotwein', white: 'Weißwein', rose: 'Roséwein', orange: 'Orange Wine' },
  vintage: (year) => `Jahrgang ${year}`,
  ingredients: 'Zutaten',
  nutrition: 'Nährwertdeklaration',
  nutritionCaption: (per) => `Durchschnittliche Nährwerte ${per}`,
  nutrientColumn: 'Nährwert',
  per100ml: `pro 100${NBSP}ml`,
  per100g: `pro 100${NBSP}g`,
  energy: 'Brennwert',
  fat: 'Fett',
  saturates: 'davon gesättigte Fettsäuren',
  carbohydrate: 'Kohlenhydrate',
  sugars: 'davon Zucker',
  protein: 'Eiweiß',
  salt: 'Salz',
  alcohol: 'Alkohol',
  allergens: 'Allergene',
  allergenNames: { sulphites: 'Sulfite', egg: 'Ei', fish: 'Fisch', milk: 'Milch' },
  contains: (list) => `Enthält: ${list}`,
  origin: 'Herkunft',
  country: 'Land',
  region: 'Region',
  designation: 'Ursprungsbezeichnung',
  producers: 'Erzeuger',
  roles: {
    producer: 'Erzeuger',
    bottler: 'Abfüller',
    importer: 'Importeur',
    distributor: 'Vertrieb',
    manufacturer: 'Hersteller',
    recycler: 'Verwerter',
  },
  gtin: 'GTIN',
  versionPublished: (version, date) => `Version ${version}, veröffentlicht am ${date}`,
  versionOnly: (version) => `Version ${version}`,
  notFoundTitle: 'Produktinformationen nicht verfügbar',
  notFoundHeading: 'Die Informationen zu diesem Produkt sind nicht verfügbar',
  notFoundBody:
    'Zu dem gescannten Code haben wir keine veröffentlichten Informationen gefunden. Vielleicht wurden sie noch nicht veröffentlicht.',
  notFoundHint: 'Bitte prüfen Sie das Etikett auf der Verpackung oder scannen Sie den Code später erneut.',
  badLinkTitle: 'Ungültiger Produktlink',
  badLinkHeading: 'Dieser Link ist kein gültiger Produktcode',
  badLinkBody: 'Die aufgerufene Adresse bezeichnet kein Produkt.',
  badLinkHint:
    'Wenn Sie die Adresse eingetippt haben, prüfen Sie sie bitte auf Tippfehler; scannen Sie sonst den QR-Code auf der Verpackung erneut.',
  withdrawnTitle: 'Produkt zurückgezogen',
  withdrawnHeading: 'Dieses Produkt wurde zurückgezogen',
  withdrawnBody: 'Der Hersteller hat die Informationen zu diesem Produkt zurückgezogen. Es wird nicht mehr angeboten.',
  withdrawnHint: 'Bei Fragen zu diesem Produkt wenden Sie sich bitte an den Hersteller oder an das Geschäft, in dem Sie es gekauft haben.',
};

const fr: Labels = {
  pageKicker: 'Informations sur le produit',
  wineColour: { red: 'Vin rouge', white: 'Vin blanc', rose: 'Vin rosé', orange: 'Vin orange' },
  vintage: (year) => `Millésime ${year}`,
  ingredients: 'Ingrédients',
  nutrition: 'Déclaration nutritionnelle',
  nutritionCaption: (per) => `Valeurs moyennes ${per}`,
  nutrientColumn: 'Nutriment',
  per100ml: `pour 100${NBSP}ml`,
  per100g: `pour 100${NBSP}g`,
  energy: 'Énergie',
  fat: 'Matières grasses',
  saturates: 'dont acides gras saturés',
  carbohydrate: 'Glucides',
  sugars: 'dont sucres',
  protein: 'Protéines',
  salt: 'Sel',
  alcohol: 'Alcool',
  allergens: 'Allergènes',
  allergenNames: { sulphites: 'sulfites', egg: 'œuf', fish: 'poisson', milk: 'lait' },
  contains: (list) => `Contient${NBSP}: ${list}`,
  origin: 'Origine',
  country: 'Pays',
  region: 'Région',
  designation: 'Appellation',
  producers: 'Producteurs',
  roles: {
    producer: 'Producteur',
    bottler: 'Embouteilleur',
    importer: 'Importateur',
    distributor: 'Distributeur',
    manufacturer: 'Fabricant',
    recycler: 'Recycleur',
  },
  gtin: 'GTIN',
  versionPublished: (version, date) => `Version ${version}, publiée le ${date}`,
  versionOnly: (version) => `Version ${version}`,
  notFoundTitle: 'Informations sur le produit indisponibles',
  notFoundHeading: 'Les informations sur ce produit ne sont pas disponibles',
  notFoundBody:
    "Nous n'avons pas trouvé d'informations publiées pour le code scanné. Elles n'ont peut-être pas encore été publiées.",
  notFoundHint: "Veuillez vérifier l'étiquette sur l'emballage ou scanner à nouveau le code plus tard.",
  badLinkTitle: 'Lien produit non valide',
  badLinkHeading: "Ce lien n'est pas un code produit valide",
  badLinkBody: "L'adresse ouverte ne désigne aucun produit.",
  badLinkHint:
    `Si vous l'avez saisie, vérifiez qu'elle ne contient pas de faute de frappe${NBSP}; sinon, scannez à nouveau le code QR sur l'emballage.`,
  withdrawnTitle: 'Produit retiré',
  withdrawnHeading: 'Ce produit a été retiré',
  withdrawnBody: "Le producteur a retiré les informations sur ce produit. Il n'est plus proposé.",
  withdrawnHint: "Pour toute question sur ce produit, veuillez contacter son producteur ou le magasin où vous l'avez acheté.",
};

export const LABELS: Readonly<Record<Lang, Labels>> = { en, de, fr };

/** The locale used for formatting: British English for `en` (EU audience: "21 November 2026"). */
const FORMAT_LOCALE: Readonly<Record<Lang, string>> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR' };

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number in the language's notation (decimal comma in de and fr), at most `maxFractionDigits` decimals. */
export function formatNumber(value: number, lang: Lang, maxFractionDigits = 2): string {
  const key = `${lang}:${maxFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(FORMAT_LOCALE[lang], { maximumFractionDigits: maxFractionDigits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

const dateFormats: Record<Lang, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat(FORMAT_LOCALE.en, { dateStyle: 'long', timeZone: 'UTC' }),
  de: new Intl.DateTimeFormat(FORMAT_LOCALE.de, { dateStyle: 'long', timeZone: 'UTC' }),
  fr: new Intl.DateTimeFormat(FORMAT_LOCALE.fr, { dateStyle: 'long', timeZone: 'UTC' }),
};

/** The calendar date (UTC) of an ISO timestamp in the language, or undefined when it is not a date. */
export function formatDate(iso: string, lang: Lang): string | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : dateFormats[lang].format(date);
}

const regionNames: Record<Lang, Intl.DisplayNames> = {
  en: new Intl.DisplayNames([FORMAT_LOCALE.en], { type: 'region', fallback: 'code' }),
  de: new Intl.DisplayNames([FORMAT_LOCALE.de], { type: 'region', fallback: 'code' }),
  fr: new Intl.DisplayNames([FORMAT_LOCALE.fr], { type: 'region', fallback: 'code' }),
};

/** The name of an ISO 3166-1 alpha-2 country in the language (FR → "France", "Frankreich"); the code if unknown. */
export function countryName(code: string, lang: Lang): string {
  try {
    return regionNames[lang].of(code) ?? code;
  } catch {
    return code; // not a well-formed region code
  }
}

const isLang = (value: string): value is Lang => (LANGUAGES as readonly string[]).includes(value);

// RFC 9110 §12.5.4: language-range [ weight ], weight = OWS ";" OWS "q=" qvalue (0 to 1, up to 3 decimals).
const RANGE = /^(\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/i;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Picks the page language from an Accept-Language header (RFC 9110 §12.5.4, RFC 4647 matching).
 *
 * - Each offered language gets the highest weight among the ranges that match it: the range itself
 *   (`de`), or a more specific range of it (`de-AT`, `de-CH` → `de`, as a lookup fallback).
 * - An exact range with q=0 (`de;q=0`) refuses that language, whatever more specific ranges say.
 * - `*` matches every offered language that no other range names; offered order breaks its ties.
 * - Ties between weights go to the range listed first; malformed members are ignored.
 * - When nothing acceptable is offered (or no header is sent), English.
 */
export function negotiateLanguage(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;

  interface Candidate {
    weight: number;
    position: number;
  }
  const best = new Map<Lang, Candidate>();
  const refused = new Set<Lang>();
  const named = new Set<Lang>();
  let wildcard: Candidate | undefined;

  acceptLanguage.split(',').forEach((member, position) => {
    const [rawRange = '', ...params] = member.split(';').map((part) => part.trim());
    if (!RANGE.test(rawRange)) return;
    let weight = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(.*)$/i.exec(param);
      if (!match) continue; // unknown parameter: not part of the grammar, tolerate it
      const value = (match[1] ?? '').trim();
      if (!QVALUE.test(value)) return; // malformed weight: ignore the whole member
      weight = Number(value);
    }
    const range = rawRange.toLowerCase();
    if (range === '*') {
      if (!wildcard || weight > wildcard.weight) wildcard = { weight, position };
      return;
    }
    const primary = range.split('-')[0] ?? '';
    if (!isLang(primary)) return;
    named.add(primary);
    if (range === primary && weight === 0) refused.add(primary);
    const current = best.get(primary);
    if (!current || weight > current.weight) best.set(primary, { weight, position });
  });

  if (wildcard) {
    for (const lang of LANGUAGES) {
      if (!named.has(lang)) best.set(lang, wildcard);
    }
  }

  let chosen: Lang | undefined;
  let chosenCandidate: Candidate | undefined;
  for (const lang of LANGUAGES) {
    const candidate = best.get(lang);
    if (!candidate || candidate.weight <= 0 || refused.has(lang)) continue;
    if (
      !chosenCandidate ||
      candidate.weight > chosenCandidate.weight ||
      (candidate.weight === chosenCandidate.weight && candidate.position < chosenCandidate.position)
    ) {
      chosen = lang;
      chosenCandidate = candidate;
    }
  }
  return chosen ?? DEFAULT_LANGUAGE;
}
