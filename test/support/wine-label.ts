import type { Passport, PassportData } from '../../lib/domain/passport.ts';

/**
 * A full wine label: vocabulary ingredients of four categories, allergens among them, free text
 * with translations, the whole nutrition declaration (complete: Regulation (EU) No 1169/2011 Art.
 * 30(1)), the actual alcoholic strength in half units (Reg. (EU) 2019/33 Art. 44), the allergen
 * flags its ingredients carry, origin and producers. Its allergens show in the list of ingredients,
 * so the page has no "Contains:" box (docs/labelling.md#no-allergen-box-beside-a-list); with
 * `ingredients: []` it has one. `containsFish: true` is stored data from before the wine-fish rule
 * (publishing refuses it now; the page never shows it). Shared by the 24-language page test, the
 * browser (axe) test, the bench and the screenshots.
 */
export const FULL_WINE: PassportData = {
  productType: 'wine',
  colour: 'red',
  vintage: 2019,
  labelLanguage: 'fr',
  ingredients: [
    { code: 'grapes' },
    { code: 'rectified-concentrated-grape-must' },
    { code: 'tartaric-acid' },
    { code: 'malic-acid' },
    { code: 'potassium-metabisulphite' },
    { code: 'lysozyme' },
    { code: 'gum-arabic' },
    { text: { en: 'oak chips', de: 'Eichenholzstücke', fr: 'copeaux de chêne' } },
    { code: 'nitrogen' },
  ],
  nutrition: { energyKj: 348, energyKcal: 84, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.6, sugarsG: 0.6, proteinG: 0.1, saltG: 0.01, alcoholG: 10.4 },
  alcoholByVolume: 13,
  allergens: { containsSulphites: true, containsEgg: true, containsFish: true, containsMilk: false },
  origin: { country: 'FR', region: 'Bordeaux', designation: 'Pauillac AOC' },
  producers: [
    { name: 'Domaine Lumière', role: 'producer', country: 'FR' },
    { name: 'Château Lumière Embouteillage', role: 'bottler', country: 'FR' },
    { name: 'Weinimport Berger GmbH', role: 'importer', country: 'DE' },
  ],
};

/** The read form of a published version 3 of a wine with `data` (what the e-label renders). */
export function wineView(data: PassportData, overrides: Partial<Passport> = {}): Passport {
  return {
    productId: '01890a5d-ac96-774b-bcce-b302099a8057',
    passportId: 'ps_01890a5dac96',
    name: 'Château Lumière Pauillac 2019',
    category: 'wine',
    gtin: '04006381333931',
    data,
    qrCodeUrl: 'https://id.example.com/org_0123456789abcdef/live/01/04006381333931',
    status: 'published',
    version: 3,
    lastUpdated: '2026-11-21T23:30:00.000Z',
    publishedAt: '2026-11-21T23:30:00.000Z',
    digest: `sha256:${'a'.repeat(64)}`,
    previousDigest: `sha256:${'b'.repeat(64)}`,
    ...overrides,
  };
}

/** The read form of a published version of FULL_WINE. */
export const fullWineView = (overrides: Partial<Passport> = {}): Passport => wineView(FULL_WINE, overrides);
