import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createProduct } from '../../lib/services/products.ts';
import type { Origin } from '../../lib/domain/events.ts';

const ORIGIN: Origin = { actor: { type: 'api_key', id: 'key_1' }, requestId: 'req_1' };

/**
 * A new product's qrCodeUrl (docs/brand-domains.md): on the organization's verified default
 * domain for a live product, found with one GetItem of the default pointer; the platform resolver
 * otherwise, and always for a test product (which reads no pointer).
 */
const ddb = mockClient(DynamoDBDocumentClient);
process.env.RESOLVER_ORIGIN = 'https://resolver.passport.example';
beforeEach(() => {
  ddb.reset();
  ddb.onAnyCommand().resolves({});
});
const input = { gtin: '04006381333931', name: 'Riesling', category: 'wine' as const };
const pointerReads = () => ddb.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.SK === 'DEFAULTDOMAIN');

describe('qrCodeUrl of a new product', () => {
  it('is on the default domain for a live product of an organization that has one, read with one GetItem', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: 'ORG#org_1', SK: 'DEFAULTDOMAIN' } }).resolves({ Item: { domainId: 'dom_1', hostname: 'id.brand.example' } });
    // Act
    const product = await createProduct({ orgId: 'org_1', environment: 'live' }, input, ORIGIN);
    // Assess
    expect(product.qrCodeUrl).toBe('https://id.brand.example/01/04006381333931');
    expect(pointerReads()).toHaveLength(1);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });

  it('is on the platform resolver for a live product of an organization without a default domain', async () => {
    // Act
    const product = await createProduct({ orgId: 'org_1', environment: 'live' }, input, ORIGIN);
    // Assess
    expect(product.qrCodeUrl).toBe('https://resolver.passport.example/org_1/live/01/04006381333931');
  });

  it('stays on the platform resolver for a test product, without reading the default domain', async () => {
    // Prepare
    ddb.on(GetCommand, { Key: { PK: 'ORG#org_1', SK: 'DEFAULTDOMAIN' } }).resolves({ Item: { domainId: 'dom_1', hostname: 'id.brand.example' } });
    // Act
    const product = await createProduct({ orgId: 'org_1', environment: 'test' }, input, ORIGIN);
    // Assess
    expect(product.qrCodeUrl).toBe('https://resolver.passport.example/org_1/test/01/04006381333931');
    expect(pointerReads()).toHaveLength(0);
  });
});
