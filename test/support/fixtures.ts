import { call } from './api.ts';
import { uniqueGtin13 } from './gtin.ts';

/** A complete red wine passport data object, as a brand would publish it. */
export const RED_WINE = {
  productType: 'wine',
  colour: 'red',
  vintage: 2022,
  ingredients: ['Grapes', 'Preservative: sulphites'],
  nutrition: { energyKj: 320, energyKcal: 77, fatG: 0, saturatedFatG: 0, carbohydratesG: 2.5, sugarsG: 0.6, proteinG: 0.1, saltG: 0, alcoholG: 10.1 },
  allergens: { containsSulphites: true, containsEgg: false, containsFish: false, containsMilk: false },
  origin: { country: 'FR', region: 'Bordeaux', designation: 'AOC Bordeaux Supérieur' },
  producers: [{ name: 'Château Exemple', role: 'producer', country: 'FR' }],
} as const;

/** A food passport data object: its scans keep their country, device and referrer (docs/privacy.md), a wine's do not. */
export const TOMATO_PASSATA = {
  productType: 'food',
  ingredients: ['Tomatoes (99%)', 'Salt'],
  nutrition: { energyKj: 134, energyKcal: 32, fatG: 0.2, saturatedFatG: 0, carbohydratesG: 5.1, sugarsG: 4.2, proteinG: 1.4, saltG: 0.4 },
  allergens: { containsSulphites: false, containsEgg: false, containsFish: false, containsMilk: false },
  origin: { country: 'IT', region: 'Emilia-Romagna' },
  producers: [{ name: 'Campo Verde Società Agricola', role: 'manufacturer', country: 'IT' }],
} as const;

export interface CreatedProduct {
  productId: string;
  qrCodeUrl: string;
  createdAt: string;
  gtin: string;
}

export async function createProduct(key: string, overrides: Record<string, unknown> = {}): Promise<CreatedProduct> {
  const gtin = uniqueGtin13();
  const body = { name: 'Château Exemple 2022', category: 'wine', gtin, ...overrides };
  const response = await call('POST', '/v1/products', { key, body });
  if (response.status !== 201) throw new Error(`create product: ${response.status} ${response.text}`);
  return { ...response.body, gtin: String(body.gtin) };
}

export async function publish(key: string, productId: string, data: Record<string, unknown> = RED_WINE) {
  const response = await call('POST', '/v1/passports', { key, body: { productId, data } });
  if (response.status !== 201) throw new Error(`publish passport: ${response.status} ${response.text}`);
  return response.body as { passportId: string; productId: string; version: number; status: string; createdAt: string };
}
