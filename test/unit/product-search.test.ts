import { describe, expect, it } from 'vitest';
import { productMatches } from '../../lib/domain/product.ts';

describe('product search (q of GET /v1/products)', () => {
  const wine = { name: 'Mosel Riesling Spätlese', gtin: '04006381333931' };
  const gtin8 = { name: 'Small pack', gtin: '00000096385074' };
  const gtin12 = { name: 'US pack', gtin: '00036000291452' };

  it('matches a name substring in any letter case', () => {
    expect(productMatches(wine, 'riesling')).toBe(true);
    expect(productMatches(wine, ' SPÄTLESE ')).toBe(true);
    expect(productMatches(wine, 'merlot')).toBe(false);
  });

  it('matches a GTIN prefix in each length the GTIN is printed in, and nothing in the middle', () => {
    expect(productMatches(wine, '0400638')).toBe(true); // GTIN-14
    expect(productMatches(wine, '400638')).toBe(true); // GTIN-13, as printed
    expect(productMatches(wine, '6381333')).toBe(false);
    expect(productMatches(gtin8, '963850')).toBe(true); // GTIN-8
    expect(productMatches(gtin12, '036000')).toBe(true); // GTIN-12
    expect(productMatches(wine, '963850')).toBe(false);
  });
});
