/**
 * Values the API accepts, for the dashboard's selects. test/unit/dashboard.test.ts checks them
 * against lib/domain, which the dashboard does not bundle (it would bring zod along).
 */
export { API_KEY_SCOPES } from '../../lib/domain/scopes.ts';

export const CATEGORIES = ['wine', 'food', 'textile', 'electronics', 'battery'] as const;
export const WINE_COLOURS = ['red', 'white', 'rose', 'orange'] as const;
export const SUPPLIER_ROLES = ['producer', 'bottler', 'importer', 'distributor', 'manufacturer', 'recycler'] as const;
export const NUTRITION_FIELDS = ['energyKj', 'energyKcal', 'fatG', 'saturatedFatG', 'carbohydratesG', 'sugarsG', 'proteinG', 'saltG', 'alcoholG'] as const;
export const ALLERGEN_FIELDS = ['containsSulphites', 'containsEgg', 'containsFish', 'containsMilk'] as const;
export const WEBHOOK_SOURCES = ['headless-cms', 'custom'] as const;
