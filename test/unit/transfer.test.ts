import { describe, expect, it } from 'vitest';
import type { ProductRecord } from '../../lib/domain/product.ts';
import { pointingOwners, productAfterTransfer, toTransferView, transferFromItem, type TransferRecord } from '../../lib/domain/transfer.ts';

/**
 * A transfer's record and what it makes of the product (docs/transfers.md): the receiver's product is
 * the same product with the organizations it came from, each former owner's pointer moved to the
 * receiver; each side sees the transfer in its own direction, and the receiver the move's progress.
 */
const product: ProductRecord = {
  productId: '01937f4e-8a6b-7c3d-9e2f-0a1b2c3d4e5f',
  orgId: 'org_b',
  environment: 'live',
  gtin: '04006381333931',
  name: 'Traction battery',
  category: 'battery',
  qrCodeUrl: 'https://id.maker.example/01/04006381333931',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-02T00:00:00.000Z',
  passportVersion: 2,
  passportDigest: `sha256:${'2'.repeat(64)}`,
  formerOwners: ['org_a', 'org_c'],
};
const record: TransferRecord = {
  transferId: 'tr_0000000000aaaaaaaaaa',
  environment: 'live',
  status: 'accepted',
  productId: product.productId,
  gtin: product.gtin,
  productName: product.name,
  category: 'battery',
  from: { orgId: 'org_b' },
  to: { orgId: 'org_c' },
  createdAt: '2026-11-03T00:00:00.000Z',
  updatedAt: '2026-11-03T00:01:00.000Z',
  acceptedAt: '2026-11-03T00:01:00.000Z',
  product,
  move: { phase: 'copy', copySet: 'items', copyAfter: 'ITEM#04006381333931#SN2', copied: 40, registrations: 0, deleted: 0, blocked: 'A battery identifier is yours already.' },
};

describe('the product after a transfer', () => {
  it('is the same product, its chain head and printed link kept, owned by the receiver, with its former owners oldest first and the receiver not among them', () => {
    // Act
    const after = productAfterTransfer(product, record);
    // Assess
    expect(after).toEqual({ ...product, orgId: 'org_c', formerOwners: ['org_a', 'org_b'] });
    expect(pointingOwners(product, record)).toEqual(['org_a', 'org_b']);
  });
});

describe('a transfer as each side sees it', () => {
  it('is outgoing to the sender and incoming to the receiver, with the move\'s progress while accepted, and reads back as stored', () => {
    // Act
    const asSender = toTransferView(record, { orgId: 'org_b' });
    const asReceiver = toTransferView(record, { orgId: 'org_c' });
    const stored = transferFromItem({ type: 'transfer', ...record, product: undefined }, undefined);
    // Assess
    expect(asSender.direction).toBe('outgoing');
    expect(asReceiver.direction).toBe('incoming');
    expect(asReceiver.progress).toEqual({ phase: 'copy', copied: 40, registrations: 0, deleted: 0, blocked: 'A battery identifier is yours already.' });
    expect(toTransferView({ ...record, status: 'completed' }, { orgId: 'org_c' }).progress).toBeUndefined();
    expect(stored).toEqual({ ...record, product: undefined } as unknown);
    expect(transferFromItem({ ...record, type: 'handover' })).toBeUndefined();
  });
});
