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

/**
 * The two categories whose similar or substitutable additives a wine may list as "contains … and/or
 * …", at most three together (Reg. (EU) 2019/33 Art. 48a(5); docs/labelling.md#substitutable-additives).
 */
export const SUBSTITUTABLE_CATEGORIES = ['acidityRegulator', 'stabilisingAgent'] as const;
export type SubstitutableCategory = (typeof SUBSTITUTABLE_CATEGORIES)[number];

/** Longest run of substitutable additives Art. 48a(5) allows ("followed by no more than three additives"). */
export const MAX_SUBSTITUTABLE_RUN = 3;

/**
 * The vocabulary codes in those categories, with their category: enough to validate
 * `substitutable` without the vocabulary's names. test/unit/labelling-vocabulary.test.ts holds it
 * to vocabulary.json.
 */
export const SUBSTITUTABLE_CODES: Readonly<Partial<Record<IngredientCode, SubstitutableCategory>>> = {
  'tartaric-acid': 'acidityRegulator',
  'malic-acid': 'acidityRegulator',
  'lactic-acid': 'acidityRegulator',
  'calcium-sulphate': 'acidityRegulator',
  'citric-acid': 'stabilisingAgent',
  'metatartaric-acid': 'stabilisingAgent',
  'gum-arabic': 'stabilisingAgent',
  carboxymethylcellulose: 'stabilisingAgent',
  'potassium-polyaspartate': 'stabilisingAgent',
  'yeast-mannoproteins': 'stabilisingAgent',
};
