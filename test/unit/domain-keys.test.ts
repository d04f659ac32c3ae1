import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteDomain, findDomainByHostname, getDefaultDomain, insertDomain, markVerified, setDefault } from '../../lib/data/domains.ts';
import type { DomainRecord } from '../../lib/domain/domain.ts';

/**
 * Pins the stored keys of brand domains (the chart in lib/data/keys.ts) and the conditions that
 * keep one verified organization per hostname and one default per organization.
 */
const ddb = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  ddb.reset();
  ddb.onAnyCommand().resolves({});
});

const domain: DomainRecord = {
  domainId: 'dom_1',
  orgId: 'org_1',
  hostname: 'id.brand.example',
  status: 'pending',
  default: false,
  verification: { name: '_passport-challenge.id.brand.example', value: 'v' },
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};
type Item = Record<string, any>;
const transactKeys = (): string[] =>
  ddb.commandCalls(TransactWriteCommand).flatMap((c) =>
    (c.args[0].input.TransactItems ?? []).map((t: Item) => {
      const [kind, body] = Object.entries(t)[0] as [string, Item];
      const key = body.Item ?? body.Key;
      return `${kind} ${key.PK} | ${key.SK}`;
    }),
  );

describe('brand domain keys', () => {
  it('finds a hostname with one GetItem of its claim (lower case)', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { orgId: 'org_1', domainId: 'dom_1', status: 'verified' } });
    // Act
    const found = await findDomainByHostname('ID.Brand.Example');
    // Assess
    expect(found).toEqual({ orgId: 'org_1', domainId: 'dom_1', status: 'verified' });
    expect(ddb.calls()).toHaveLength(1);
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input.Key).toEqual({ PK: 'HOST#id.brand.example', SK: 'HOST' });
  });

  it('writes the domain and a pending claim when nobody claims the hostname', async () => {
    // Act
    await insertDomain(domain);
    // Assess
    expect(transactKeys()).toEqual(['Put ORG#org_1 | DOMAIN#dom_1', 'Put HOST#id.brand.example | HOST']);
  });

  it('claims the hostname on verification only if it is free, pending or already this domain', async () => {
    // Act
    await markVerified(domain, '2026-11-02T00:00:00.000Z');
    // Assess
    expect(transactKeys()).toEqual(['Update ORG#org_1 | DOMAIN#dom_1', 'Put HOST#id.brand.example | HOST']);
    const claim = (ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems as Item[])[1]?.Put;
    expect(claim.ConditionExpression).toBe('attribute_not_exists(PK) OR #status <> :verified OR domainId = :domainId');
    expect(claim.Item).toMatchObject({ orgId: 'org_1', domainId: 'dom_1', status: 'verified' });
  });

  it('moves the default in one transaction: the pointer, the new domain and claim, the previous domain and claim', async () => {
    // Prepare
    const previous = { ...domain, domainId: 'dom_0', hostname: 'old.brand.example', status: 'verified' as const, default: true };
    // Act
    await setDefault({ ...domain, status: 'verified' }, true, previous, '2026-11-02T00:00:00.000Z');
    // Assess
    expect(transactKeys()).toEqual([
      'Put ORG#org_1 | DEFAULTDOMAIN',
      'Update ORG#org_1 | DOMAIN#dom_1',
      'Update HOST#id.brand.example | HOST',
      'Update ORG#org_1 | DOMAIN#dom_0',
      'Update HOST#old.brand.example | HOST',
    ]);
  });

  it('reads the default with one GetItem of the pointer', async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { domainId: 'dom_1', hostname: 'id.brand.example' } });
    // Act
    const found = await getDefaultDomain('org_1');
    // Assess
    expect(found).toEqual({ domainId: 'dom_1', hostname: 'id.brand.example' });
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input.Key).toEqual({ PK: 'ORG#org_1', SK: 'DEFAULTDOMAIN' });
  });

  it("deletes the domain, its claim when it is the domain's, and the default pointer when it is the default", async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { orgId: 'org_1', domainId: 'dom_1', status: 'verified' } });
    // Act
    await deleteDomain({ ...domain, status: 'verified', default: true });
    // Assess
    expect(transactKeys()).toEqual(['Delete ORG#org_1 | DOMAIN#dom_1', 'Delete HOST#id.brand.example | HOST', 'Delete ORG#org_1 | DEFAULTDOMAIN']);
  });

  it("leaves another organization's claim when deleting a domain that never held it", async () => {
    // Prepare
    ddb.on(GetCommand).resolves({ Item: { orgId: 'org_2', domainId: 'dom_2', status: 'verified' } });
    // Act
    await deleteDomain(domain);
    // Assess
    expect(transactKeys()).toEqual(['Delete ORG#org_1 | DOMAIN#dom_1']);
  });
});
