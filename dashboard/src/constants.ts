/**
 * Values the API accepts, for the dashboard's selects: the very arrays the zod schemas are built
 * from, taken from lib/ modules that import no package (so zod stays out of the bundle).
 */
export { ALLERGEN_FIELDS, CATEGORIES, GRANULARITIES, NUTRITION_FIELDS, PROTECTIVE_ATMOSPHERES, SOURCES as WEBHOOK_SOURCES, SUPPLIER_ROLES, WINE_COLOURS } from '../../lib/domain/enums.ts';
export type { Granularity } from '../../lib/domain/enums.ts';
export { API_KEY_SCOPES } from '../../lib/domain/scopes.ts';
export { PRODUCT_GRANULARITIES } from '../../lib/domain/import-columns.ts';
export { ENVIRONMENTS } from '../../lib/domain/tenant.ts';
