import { baseUrl } from './api.ts';

export interface SentScan {
  v: number;
  orgId: string;
  environment: string;
  productId: string;
  gtin: string;
  at: string;
  country: string;
  referrer: string;
  device: string;
}

/** The scan events the resolver has put on the local scan queue for one product (local-only endpoint). */
export async function sentScans(productId: string): Promise<SentScan[]> {
  const response = await fetch(`${baseUrl()}/_local/scan-events`);
  const { data } = (await response.json()) as { data: SentScan[] };
  return data.filter((event) => event.productId === productId);
}
