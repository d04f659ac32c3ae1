import { checkDigit } from '../domain/gtin.ts';
import type { PassportData } from '../domain/passport.ts';
import type { Origin } from '../domain/events.ts';
import type { Tenant } from '../domain/tenant.ts';
import { publishPassport } from './passports.ts';
import { createProduct } from './products.ts';
import { createSupplier } from './suppliers.ts';

const gtin13 = (body12: string): string => `${body12}${checkDigit(body12)}`;

/**
 * The sample red wine, its ingredients by vocabulary code (GET /v1/vocabulary/ingredients), so that
 * its e-label names them in the page's language under their Table 2 categories (Reg. (EU) 2019/934
 * Annex I Part A Table 2, docs/labelling.md#additive-categories) and emphasises sulphur dioxide as
 * the Annex I Part A term it is.
 */
const RED_WINE_V1: PassportData = {
  productType: 'wine',
  colour: 'red',
  vintage: 2021,
  ingredients: [{ code: 'grapes' }, { code: 'tartaric-acid' }, { code: 'sulphur-dioxide' }],
  nutrition: { energyKj: 347, energyKcal: 83, fatG: 0, saturatedFatG: 0, carbohydratesG: 0.6, sugarsG: 0.2, proteinG: 0, saltG: 0, alcoholG: 10.3 },
  allergens: { containsSulphites: true, containsEgg: false, containsFish: false, containsMilk: false },
  origin: { country: 'FR', region: 'Bordeaux', designation: 'AOC Côtes de Bourg' },
  producers: [{ name: 'Domaine de la Colline', role: 'producer', country: 'FR' }],
};

const RED_WINE_V2: PassportData = {
  ...RED_WINE_V1,
  // Egg albumin, a fining agent that remains in the wine: an allergenic processing aid, listed after the additives.
  ingredients: [{ code: 'grapes' }, { code: 'tartaric-acid' }, { code: 'sulphur-dioxide' }, { code: 'egg-albumin' }],
  allergens: { containsSulphites: true, containsEgg: true, containsFish: false, containsMilk: false },
  producers: [
    { name: 'Domaine de la Colline', role: 'producer', country: 'FR' },
    { name: 'Vins du Sud Import GmbH', role: 'importer', country: 'DE' },
  ],
};

/**
 * Pre-populates an organization's test environment, so an `sk_test_` key returns realistic data
 * on its first call: a red wine with two passport versions, a food and a textile product, each
 * with a passport, and two suppliers. The live environment starts empty.
 */
/** The sample data is the service's own work: its events name the system as actor. */
const SANDBOX_ORIGIN: Origin = { actor: { type: 'system', id: 'sandbox' }, requestId: null };

export async function seedSandbox(orgId: string): Promise<void> {
  const tenant: Tenant = { orgId, environment: 'test' };
  await createSupplier(tenant, { name: 'Domaine de la Colline', role: 'producer', country: 'FR', vatNumber: 'FR40303265045' }, SANDBOX_ORIGIN);
  await createSupplier(tenant, { name: 'Vins du Sud Import GmbH', role: 'importer', country: 'DE', vatNumber: 'DE136695976' }, SANDBOX_ORIGIN);

  const wine = await createProduct(tenant, {
    name: 'Colline Rouge 2021',
    category: 'wine',
    gtin: `0${gtin13('376012345001')}`,
    brand: 'Domaine de la Colline',
    sku: 'DLC-CR-21',
  }, SANDBOX_ORIGIN);
  const v1 = await publishPassport(tenant, wine, RED_WINE_V1, SANDBOX_ORIGIN);
  await publishPassport(tenant, { ...wine, passportVersion: v1.version }, RED_WINE_V2, SANDBOX_ORIGIN);

  const food = await createProduct(tenant, {
    name: 'Organic Tomato Passata 500 g',
    category: 'food',
    gtin: `0${gtin13('400123450002')}`,
    brand: 'Campo Verde',
  }, SANDBOX_ORIGIN);
  await publishPassport(tenant, food, {
    productType: 'food',
    ingredients: ['Tomatoes (99%)', 'Salt'],
    nutrition: { energyKj: 134, energyKcal: 32, fatG: 0.2, saturatedFatG: 0, carbohydratesG: 5.1, sugarsG: 4.2, proteinG: 1.4, saltG: 0.4 },
    allergens: { containsSulphites: false, containsEgg: false, containsFish: false, containsMilk: false },
    origin: { country: 'IT', region: 'Emilia-Romagna' },
    producers: [{ name: 'Campo Verde Società Agricola', role: 'manufacturer', country: 'IT' }],
  }, SANDBOX_ORIGIN);

  const textile = await createProduct(tenant, {
    name: 'Merino Wool Sweater',
    category: 'textile',
    gtin: `0${gtin13('400123450003')}`,
    brand: 'Nordic Loom',
    sku: 'NL-MW-M',
  }, SANDBOX_ORIGIN);
  await publishPassport(tenant, textile, {
    productType: 'textile',
    ingredients: ['Merino wool (100%)'],
    origin: { country: 'PT', region: 'Norte' },
    producers: [{ name: 'Nordic Loom Têxteis Lda', role: 'manufacturer', country: 'PT' }],
  }, SANDBOX_ORIGIN);
}
