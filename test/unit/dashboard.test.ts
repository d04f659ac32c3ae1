import { describe, expect, it } from 'vitest';
import { ALLERGEN_FIELDS, API_KEY_SCOPES, CATEGORIES, NUTRITION_FIELDS, SUPPLIER_ROLES, WEBHOOK_SOURCES, WINE_COLOURS } from '../../dashboard/src/constants.ts';
import { labelOf, printedGtin, utcDay } from '../../dashboard/src/format.ts';
import { API_KEY_SCOPES as DOMAIN_KEY_SCOPES } from '../../lib/domain/scopes.ts';
import { allergensSchema, NUTRITION_FIELDS as DOMAIN_NUTRITION, SUPPLIER_ROLES as DOMAIN_ROLES, WINE_COLOURS as DOMAIN_COLOURS } from '../../lib/domain/passport.ts';
import { CATEGORIES as DOMAIN_CATEGORIES } from '../../lib/domain/product.ts';
import { SOURCES } from '../../lib/domain/webhook.ts';

describe('the dashboard', () => {
  it('offers exactly the values the API accepts (it does not bundle lib/domain and zod)', () => {
    expect([...CATEGORIES]).toEqual([...DOMAIN_CATEGORIES]);
    expect([...WINE_COLOURS]).toEqual([...DOMAIN_COLOURS]);
    expect([...SUPPLIER_ROLES]).toEqual([...DOMAIN_ROLES]);
    expect([...NUTRITION_FIELDS]).toEqual([...DOMAIN_NUTRITION]);
    expect([...ALLERGEN_FIELDS]).toEqual(Object.keys(allergensSchema.shape));
    expect([...WEBHOOK_SOURCES]).toEqual([...SOURCES]);
    expect(API_KEY_SCOPES).toEqual(DOMAIN_KEY_SCOPES);
  });

  it('labels passport fields, prints GTINs as under the barcode, and counts days in UTC', () => {
    expect(labelOf('saturatedFatG')).toBe('Saturated fat (g)');
    expect(labelOf('energyKj')).toBe('Energy (kJ)');
    expect(labelOf('containsSulphites')).toBe('Contains sulphites');
    expect(printedGtin('04006381333931')).toBe('4006381333931');
    expect(printedGtin('14006381333938')).toBe('14006381333938');
    expect(utcDay(1, new Date('2026-03-01T23:30:00Z'))).toBe('2026-02-28');
  });
});
