import { baseUrl } from './api.ts';

export interface SentScan {
  v: number;
  orgId: string;
  environment: string;
  productId: string;
  gtin: string;
  lot?: string;
  at: string;
  /** Absent from a wine's scan, which is a count only (docs/privacy.md). */
  country?: string;
  referrer?: string;
  device?: string;
  countOnly?: true;
}

/** The scan events the resolver has put on the local scan queue for one product (local-only endpoint). */
export async function sentScans(productId: string): Promise<SentScan[]> {
  const response = await fetch(`${baseUrl()}/_local/scan-events`);
  const { data } = (await response.json()) as { data: SentScan[] };
  return data.filter((event) => event.productId === productId);
}
