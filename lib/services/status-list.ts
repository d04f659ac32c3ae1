import { getStatusIndex, setStatusBitIfProduct, statusBitUpdate } from '../data/credentials.ts';
import { getProduct } from '../data/products.ts';
import type { TransactItem } from '../data/writes.ts';
import { statusPosition } from '../domain/credential.ts';
import type { Tenant } from '../domain/tenant.ts';

/**
 * Revocation of a withdrawn product's credentials through the tenant's Bitstring Status Lists
 * (docs/credentials.md#revocation). A product gets its status index when its first credential is
 * signed; from then on withdrawal sets its bit and reinstatement clears it, in the status change's
 * own transaction. No AWS beyond the table, so the products function carries no KMS client.
 */

const MAX_ATTEMPTS = 10;

/**
 * Makes the product's bit say what its status says now: sets it while the product is withdrawn,
 * clears it otherwise, each write on the condition that the status is still the one read. Run by
 * whoever may have raced the other side: the first signer (index new, status read before) and a
 * status change that found no index (one may have been claimed meanwhile).
 */
export async function reconcileStatusBit(tenant: Tenant, productId: string, knownIndex?: number): Promise<void> {
  const index = knownIndex ?? (await getStatusIndex(tenant, productId, true));
  if (index === undefined) return;
  const { list, bit } = statusPosition(index);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const product = await getProduct(tenant, productId, true);
    if (!product) return;
    if ((await setStatusBitIfProduct(tenant, productId, list, bit, product.status === 'withdrawn')) === 'set') return;
  }
  throw new Error(`Could not settle the status bit of product ${productId} after ${MAX_ATTEMPTS} attempts`);
}

/**
 * What a withdrawal (`revoked`) or reinstatement adds to its transaction: the bit's update when
 * the product has a status index, and `settle`, to run after the transaction, which reconciles
 * when it had none (a first credential may have claimed one meanwhile).
 */
export async function statusChange(tenant: Tenant, productId: string, revoked: boolean): Promise<{ items: TransactItem[]; settle: () => Promise<void> }> {
  const index = await getStatusIndex(tenant, productId, true);
  if (index === undefined) return { items: [], settle: () => reconcileStatusBit(tenant, productId) };
  const { list, bit } = statusPosition(index);
  return { items: [statusBitUpdate(tenant, list, bit, revoked)], settle: async () => undefined };
}
