import { describe, expect, it } from 'vitest';
import { IMPORT_HEADERS, inputToRow, rowToInput } from '../../lib/domain/import-columns.ts';
import type { PassportData } from '../../lib/domain/passport.ts';

describe('the export and import columns of issue 15’s passport fields', () => {
  it('writes a vocabulary ingredient as code:{code} and translated text as its JSON, reads both back as they were, leaves energyCalculated out, and carries labelLanguage both ways', () => {
    // Prepare
    const passport: PassportData = {
      ingredients: ['Grapes', { code: 'tartaric-acid' }, { text: { de: 'Eiche', en: 'oak' } }, { text: { it: 'rovere' } }],
      nutrition: { energyKj: 348, energyKcal: 84, energyCalculated: true, fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, alcoholG: 10.4 },
      labelLanguage: 'pl',
    };

    // Act
    const row = inputToRow({ gtin: '04006381333931', name: 'Wine', category: 'wine' }, passport);
    const back = rowToInput(row);

    // Assess
    expect(Object.keys(row)).toEqual([...IMPORT_HEADERS]);
    expect(row['passport.ingredients']).toBe('Grapes|code:tartaric-acid|{"text":{"de":"Eiche","en":"oak"}}|{"text":{"it":"rovere"}}');
    expect(back.passport?.ingredients).toEqual(passport.ingredients);
    expect(row['passport.nutrition.energyKj']).toBe('348');
    expect(row['passport.labelLanguage']).toBe('pl');
    expect(back.errors).toEqual([]);
    expect(back.passport?.labelLanguage).toBe('pl');
    expect(back.passport?.nutrition).toEqual({ energyKj: 348, energyKcal: 84, fatG: 0, carbohydratesG: 2.6, proteinG: 0.1, alcoholG: 10.4 });
  });

  it('reads a cell part that starts with code: as a vocabulary entry and one that is a JSON object as that object (the passport schema judges both), and everything else as text', () => {
    // Act
    const { passport, errors } = rowToInput({
      gtin: '4006381333931',
      'passport.ingredients': 'Grapes| code: sulphur-dioxide |tartaric-acid|code:no-such-entry|{"text":{"fr":"chêne"}}|{not json}',
    });
    // Assess
    expect(errors).toEqual([]);
    expect(passport?.ingredients).toEqual(['Grapes', { code: 'sulphur-dioxide' }, 'tartaric-acid', { code: 'no-such-entry' }, { text: { fr: 'chêne' } }, '{not json}']);
  });
});
