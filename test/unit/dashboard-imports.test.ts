import { describe, expect, it } from 'vitest';
import { ACCEPT, contentTypeOf, exportFiles, nextLink } from '../../dashboard/src/import-export.ts';
import { parseRoute } from '../../dashboard/src/routes.ts';
import { IMPORT_MEDIA_TYPES } from '../../lib/domain/imports.ts';

const HEADER = 'gtin,name,category\r\n';
const WIDE_HEADER = 'gtin,name,category,passport.producers.4.name\r\n';

describe('the dashboard’s Import & export page helpers', () => {
  it('routes #/imports and #/imports/{importId}, and nothing deeper', () => {
    // Act, Assess
    expect(parseRoute('#/imports')).toEqual({ page: 'imports' });
    expect(parseRoute('#/imports/imp_0mwtcsjc0r32gmoy5hfq')).toEqual({ page: 'imports', importId: 'imp_0mwtcsjc0r32gmoy5hfq' });
    expect(parseRoute('#/imports/imp_1/errors')).toEqual({ page: 'not-found' });
  });

  it('sends each file with the media type the API accepts for its format, whatever the letter case of its extension', () => {
    // Act, Assess
    expect(contentTypeOf('Wines 2024.CSV')).toBe(IMPORT_MEDIA_TYPES.csv);
    expect(contentTypeOf('catalogue.xlsx')).toBe(IMPORT_MEDIA_TYPES.xlsx);
    expect(contentTypeOf('pim-export.ndjson')).toBe(IMPORT_MEDIA_TYPES.ndjson);
    expect(contentTypeOf('pim-export.jsonl')).toBe(IMPORT_MEDIA_TYPES.ndjson);
    expect(contentTypeOf('notes.txt')).toBeUndefined();
    expect(contentTypeOf('csv')).toBeUndefined();
    expect(ACCEPT.split(',')).toEqual(expect.arrayContaining(['.csv', '.xlsx', '.ndjson', ...Object.values(IMPORT_MEDIA_TYPES)]));
  });

  it('follows only rel="next", on the dashboard’s own origin', () => {
    // Act, Assess
    const base = 'https://dpp.example/dashboard/#/imports';
    expect(nextLink('</v1/exports/products?format=csv&limit=1000&starting_after=0190>; rel="next"', base)).toBe('/v1/exports/products?format=csv&limit=1000&starting_after=0190');
    expect(nextLink('<https://elsewhere.example/v1/exports/products?format=csv&starting_after=a>; rel=next', base)).toBe('/v1/exports/products?format=csv&starting_after=a');
    expect(nextLink('</v1/exports/products?page=1>; rel="prev", </v1/exports/products?page=3>; rel="next"', base)).toBe('/v1/exports/products?page=3');
    expect(nextLink('</v1/exports/products?page=1>; rel="prev"', base)).toBeUndefined();
    expect(nextLink(null, base)).toBeUndefined();
  });

  it('joins CSV pages with the same header into one file, the header once', () => {
    // Prepare
    const pages = [`${HEADER}1,A,wine\r\n2,B,wine\r\n`, `${HEADER}3,"C, rosé",wine\r\n`, `${HEADER}4,D,food`];

    // Act
    const files = exportFiles(pages, 'csv');

    // Assess
    expect(files.map((parts) => parts.join(''))).toEqual([`${HEADER}1,A,wine\r\n2,B,wine\r\n3,"C, rosé",wine\r\n4,D,food\r\n`]);
  });

  it('keeps CSV pages whose headers differ (more producers on one page) as one complete file each', () => {
    // Prepare
    const pages = [`${WIDE_HEADER}1,A,wine,Estate Four\r\n`, `${HEADER}2,B,wine\r\n`];

    // Act
    const files = exportFiles(pages, 'csv');

    // Assess
    expect(files.map((parts) => parts.join(''))).toEqual(pages);
  });

  it('joins NDJSON pages as they are, one object a line', () => {
    // Act
    const files = exportFiles(['{"gtin":"1"}\n{"gtin":"2"}\n', '{"gtin":"3"}'], 'ndjson');

    // Assess
    expect(files.map((parts) => parts.join(''))).toEqual(['{"gtin":"1"}\n{"gtin":"2"}\n{"gtin":"3"}\n']);
  });
});
