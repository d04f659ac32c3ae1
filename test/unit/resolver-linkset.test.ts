import { describe, expect, it } from 'vitest';
import { bestLink, linkset, parseLinkType, productLinks, resolverDescription, wantsLinkset, type Link } from '../../functions/resolver/linkset.ts';
import type { PublicView } from '../../lib/data/public-reads.ts';
import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { descriptionErrors, linksetErrors } from '../support/gs1-schemas.ts';

const ORIGIN = 'https://id.example.com';
const TENANT = { orgId: 'org_0123456789abcdef', environment: 'live' } as const;
const GTIN = '04006381333931';
const view = {
  productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
  name: 'Riesling 2023',
  category: 'wine',
  gtin: GTIN,
  qrCodeUrl: `${ORIGIN}/${TENANT.orgId}/live/01/${GTIN}`,
  passport: { passportId: 'ps_1', productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f', version: 3, data: {}, createdAt: '2026-11-01T00:00:00.000Z', digest: `sha256:${'a'.repeat(64)}` },
} as unknown as PublicView & { passport: NonNullable<PublicView['passport']> };
const page = (lang: string) => `${ORIGIN}/${TENANT.orgId}/live/p/${GTIN}/3/${lang}`;
const JSON_URL = `${ORIGIN}/${TENANT.orgId}/live/p/${GTIN}/3/passport.json`;
const links = productLinks(view, TENANT, ORIGIN);
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the linkset of a resolved GTIN', () => {
  it('validates against the project’s GS1 linkset schema, with full-URI link types, the item description and the anchor as requested', () => {
    // Act
    const body = linkset(view, `https://id.brand.example/01/${GTIN}/10/LOT1`, links);
    // Assess
    expect(linksetErrors(body)).toEqual([]);
    const context = body.linkset[0] as Record<string, unknown>;
    expect(context.anchor).toBe(`https://id.brand.example/01/${GTIN}/10/LOT1`);
    expect(context.itemDescription).toBe('Riesling 2023');
    expect(Object.keys(context).filter((k) => k.startsWith('https://'))).toEqual([
      'https://gs1.org/voc/defaultLink',
      'https://gs1.org/voc/defaultLinkMulti',
      'https://gs1.org/voc/pip',
      'https://gs1.org/voc/certificationInfo',
    ]);
  });

  it('lists the current version’s e-label once per language (the 24) with hreflang and title, and the JSON passport typed application/json', () => {
    // Assess
    expect(links.pip).toHaveLength(25);
    expect(links.pip.map((link) => link.hreflang?.[0])).toEqual([...LANGUAGES, undefined]);
    expect(links.pip).toContainEqual({ href: page('en'), title: 'Riesling 2023: product information (English)', type: 'text/html', hreflang: ['en'] });
    expect(links.pip).toContainEqual({ href: page('de'), title: 'Riesling 2023: product information (Deutsch)', type: 'text/html', hreflang: ['de'] });
    expect(links.pip).toContainEqual({ href: page('el'), title: 'Riesling 2023: product information (Ελληνικά)', type: 'text/html', hreflang: ['el'] });
    expect(links.pip.at(-1)).toEqual({ href: JSON_URL, title: `Riesling 2023: digital product passport (JSON), version 3, sha256:${'a'.repeat(64)}`, type: 'application/json' });
    expect(links.defaultLink).toEqual([links.pip.find((link) => link.hreflang?.[0] === 'en')]);
  });

  it('makes the product’s label language its default link, and the fallback when Accept-Language names none of the 24', () => {
    // Prepare
    const polish = { ...view, passport: { ...view.passport, data: { labelLanguage: 'pl' } } } as typeof view;
    // Act
    const polishLinks = productLinks(polish, TENANT, ORIGIN);
    // Assess
    expect(polishLinks.defaultLink.map((link) => link.href)).toEqual([page('pl')]);
    expect(bestLink(polishLinks.defaultLinkMulti, BROWSER, 'ja', 'pl')?.href).toBe(page('pl'));
    expect(bestLink(polishLinks.defaultLinkMulti, BROWSER, undefined, 'pl')?.href).toBe(page('pl'));
    expect(bestLink(polishLinks.defaultLinkMulti, BROWSER, 'cs', 'pl')?.href).toBe(page('cs'));
  });

  it('is refused by the schema when an item description is missing or a link type is not a URI (the schema can fail)', () => {
    // Prepare
    const good = linkset(view, view.qrCodeUrl, links);
    const { itemDescription: _, ...withoutDescription } = good.linkset[0] as Record<string, unknown>;
    // Act and assess
    expect(linksetErrors({ linkset: [withoutDescription] })).not.toEqual([]);
    expect(linksetErrors({ linkset: [{ ...good.linkset[0], pip: links.pip }] })).not.toEqual([]);
    expect(linksetErrors({ linkset: [{ ...good.linkset[0], 'https://gs1.org/voc/pip': [{ href: JSON_URL }] }] })).not.toEqual([]);
  });
});

describe('choosing a link for a request', () => {
  it('reads linkType as linkset/all, a gs1: CURIE or the full vocabulary URI', () => {
    expect(parseLinkType(undefined)).toEqual({ kind: 'default' });
    expect(parseLinkType('all')).toEqual({ kind: 'linkset' });
    expect(parseLinkType('linkset')).toEqual({ kind: 'linkset' });
    expect(parseLinkType('gs1:pip')).toEqual({ kind: 'type', name: 'pip', known: true });
    expect(parseLinkType('https://gs1.org/voc/pip')).toEqual({ kind: 'type', name: 'pip', known: true });
    expect(parseLinkType('gs1:recallStatus')).toEqual({ kind: 'type', name: 'recallStatus', known: false });
    expect(parseLinkType('pip')).toMatchObject({ kind: 'type', known: false });
  });

  it('picks the e-label in the best language for a browser, English when nothing offered is acceptable', () => {
    const pick = (acceptLanguage?: string, accept: string | undefined = BROWSER) => bestLink(links.defaultLinkMulti, accept, acceptLanguage)?.href;
    expect(pick('de-DE,de;q=0.9,en;q=0.5')).toBe(page('de'));
    expect(pick('fr-CH')).toBe(page('fr'));
    expect(pick('ja, *;q=0')).toBe(page('en'));
    expect(pick(undefined, undefined)).toBe(page('en'));
    expect(pick('de', '*/*')).toBe(page('de'));
  });

  it('picks the JSON passport for Accept: application/json, whatever the language', () => {
    expect(bestLink(links.pip, 'application/json', 'de')?.href).toBe(JSON_URL);
    expect(bestLink(links.defaultLinkMulti, 'application/json, text/html;q=0.5', undefined)?.href).toBe(JSON_URL);
  });

  it('falls back to the page when the Accept header names nothing offered, and has no link for an empty type', () => {
    expect(bestLink(links.pip, 'image/png', 'fr')?.href).toBe(page('fr'));
    expect(bestLink([] as Link[], BROWSER, 'en')).toBeUndefined();
  });

  it('asks for the linkset by Accept only when application/linkset+json is preferred', () => {
    expect(wantsLinkset('application/linkset+json')).toBe(true);
    expect(wantsLinkset('application/linkset+json, application/json;q=0.5')).toBe(true);
    expect(wantsLinkset(BROWSER)).toBe(false);
    expect(wantsLinkset(undefined)).toBe(false);
  });
});

describe('the resolver description file', () => {
  it('validates against the project’s description schema, names the GTIN by its AI "01", and is rooted at the host asked', () => {
    // Act
    const platform = resolverDescription('https://id.example.com/', false);
    const brand = resolverDescription('https://id.brand.example', true);
    // Assess
    expect(descriptionErrors(platform)).toEqual([]);
    expect(descriptionErrors(brand)).toEqual([]);
    expect(platform).toMatchObject({ resolverRoot: 'https://id.example.com', supportedPrimaryKeys: ['01'] });
    expect(brand).toMatchObject({ resolverRoot: 'https://id.brand.example', pathStructure: expect.stringMatching(/^\/01\/\{gtin\}/) });
  });

  it('is refused by the schema with a key name instead of an AI (the old answer)', () => {
    expect(descriptionErrors({ ...resolverDescription(ORIGIN, false), supportedPrimaryKeys: ['gtin'] })).not.toEqual([]);
  });
});
