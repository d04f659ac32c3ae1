/**
 * The codes of the ingredient vocabulary (lib/domain/labelling/vocabulary.json), in its order.
 * Validating a passport needs only these: keeping them here spares every function that validates
 * passports the vocabulary's names in 24 languages (the passports bundle stays within its budget,
 * docs/decisions.md). test/unit/labelling-vocabulary.test.ts holds this list to the JSON file.
 * No imports.
 */
export const INGREDIENT_CODES = [
  'grapes',
  'concentrated-grape-must',
  'rectified-concentrated-grape-must',
  'sucrose',
  'tirage-liqueur',
  'expedition-liqueur',
  'tartaric-acid',
  'malic-acid',
  'lactic-acid',
  'calcium-sulphate',
  'sulphur-dioxide',
  'potassium-bisulphite',
  'potassium-metabisulphite',
  'sorbic-acid',
  'potassium-sorbate',
  'lysozyme',
  'dimethyl-dicarbonate',
  'ascorbic-acid',
  'citric-acid',
  'metatartaric-acid',
  'gum-arabic',
  'carboxymethylcellulose',
  'potassium-polyaspartate',
  'yeast-mannoproteins',
  'argon',
  'nitrogen',
  'carbon-dioxide',
  'egg-albumin',
  'casein',
  'milk-protein',
  'isinglass',
] as const;
export type IngredientCode = (typeof INGREDIENT_CODES)[number];
