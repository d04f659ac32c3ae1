import { beforeAll, describe, expect, it } from 'vitest';
import { call, newOrg } from '../support/api.ts';
import { batteryItemData, batteryModelData } from '../support/battery.ts';
import { createProduct, publish } from '../support/fixtures.ts';

/**
 * Every relation a linkset lists is a link type `?linkType=` follows (docs/resolver.md#link-types;
 * GS1's resolver suite asks for each): generated from the linksets of a wine, a battery model, its
 * batch and one of its items, each relation asked for by its full URI and by its short form
 * (`gs1:…`, or the IANA name `alternate` of the backup copy), and answered with a redirect to one
 * of the links the linkset lists for it.
 */

type Json = Record<string, any>;
const GS1 = 'https://gs1.org/voc/';
const IANA = 'http://www.iana.org/assignments/relation/';
const links: Record<string, string> = {};

beforeAll(async () => {
  const org = await newOrg('Link types');
  const wine = await createProduct(org.live, { name: 'Link types Riesling' });
  await publish(org.live, wine.productId);
  const battery = await createProduct(org.live, { name: 'Link types battery', category: 'battery' });
  await publish(org.live, battery.productId, batteryModelData('ev'));
  for (const [path, body] of [
    [`/v1/products/${battery.productId}/batches/LT1?force=true`, {}],
    [`/v1/products/${battery.productId}/items/LT0001?force=true`, { lot: 'LT1', data: batteryItemData({ digitalLink: `${battery.qrCodeUrl}/21/LT0001`, serial: 'LT0001' }) }],
  ] as const) {
    const response = await call('PUT', path, { key: org.live, body });
    if (response.status !== 201) throw new Error(`set-up ${path}: ${response.status} ${response.text}`);
  }
  Object.assign(links, { wine: wine.qrCodeUrl, 'battery model': battery.qrCodeUrl, batch: `${battery.qrCodeUrl}/10/LT1`, item: `${battery.qrCodeUrl}/21/LT0001` });
}, 120_000);

const shortForm = (relation: string): string => (relation.startsWith(GS1) ? `gs1:${relation.slice(GS1.length)}` : relation.slice(IANA.length));

describe('?linkType= follows every relation the linkset lists', () => {
  it.each(['wine', 'battery model', 'batch', 'item'])('%s', async (what) => {
    // Prepare
    const link = links[what] as string;
    const linkset = (await (await fetch(`${link}?linkType=linkset`)).json()) as Json;
    const context = linkset.linkset[0] as Json;
    const relations = Object.keys(context).filter((key) => key !== 'anchor' && key !== 'itemDescription');

    // Act
    const answers = await Promise.all(
      relations.flatMap((relation) =>
        [relation, shortForm(relation)].map(async (asked) => {
          const response = await fetch(`${link}?linkType=${encodeURIComponent(asked)}`, { redirect: 'manual' });
          return { relation, asked, status: response.status, location: response.headers.get('location') ?? '' };
        }),
      ),
    );

    // Assess: the backup copy is among them, and each answer is one of the relation's own links.
    expect(relations).toContain(`${IANA}alternate`);
    for (const answer of answers) {
      const hrefs = (context[answer.relation] as Json[]).map((l) => l.href as string);
      expect({ asked: answer.asked, status: answer.status }).toEqual({ asked: answer.asked, status: 307 });
      expect(hrefs.some((href) => answer.location.startsWith(href))).toBe(true);
    }
  });
});
