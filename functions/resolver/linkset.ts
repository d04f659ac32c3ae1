import type { PublicView } from '../../lib/data/passports.ts';

export const LINKSET_CONTEXT_LINK =
  '<https://ref.gs1.org/voc/data/linkset.jsonld>; rel="http://www.w3.org/ns/json-ld#context"; type="application/ld+json"';

const GS1 = 'https://gs1.org/voc/';
export const LANGUAGES = ['en', 'de', 'fr'];

/**
 * The RFC 9264 linkset of a resolved GTIN, in GS1's form: one context object anchored at the
 * Digital Link URI, link relation types as full GS1 vocabulary URIs, every link with a title.
 */
export function linkset(view: PublicView, anchor: string) {
  const page = { href: view.qrCodeUrl, title: `${view.name}: product information (e-label)`, type: 'text/html', hreflang: LANGUAGES };
  return {
    linkset: [
      {
        anchor,
        itemDescription: view.name,
        [`${GS1}defaultLink`]: [page],
        [`${GS1}pip`]: [
          page,
          { href: view.qrCodeUrl, title: `${view.name}: digital product passport (JSON)`, type: 'application/json' },
        ],
      },
    ],
  };
}

/** `/.well-known/gs1resolver`: what this resolver supports. */
export function resolverDescription(resolverRoot: string) {
  return {
    name: 'Product Passport resolver',
    resolverRoot,
    supportedPrimaryKeys: ['gtin'],
    supportedLinkType: [{ namespace: GS1, prefix: 'gs1:' }],
    linkTypeDefaultCanBeLinkset: true,
    linkTypeDefaultCanBeAll: true,
    supportedContextValuesEnumerated: [],
    supportedLanguages: LANGUAGES,
    pathStructure: '/{organization}/{environment}/01/{gtin}[/22/{cpv}][/10/{lot}][/21/{serial}]',
  };
}
