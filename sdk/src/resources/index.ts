import type { Api } from '../request.ts';
import { accessGrants } from './access-grants.ts';
import { analytics } from './analytics.ts';
import { batches } from './batches.ts';
import { dpps } from './dpps.ts';
import { drafts } from './drafts.ts';
import { eventSubscriptions } from './event-subscriptions.ts';
import { events } from './events.ts';
import { exportFiles } from './exports.ts';
import { imports } from './imports.ts';
import { items } from './items.ts';
import { labelling } from './labelling.ts';
import { passports } from './passports.ts';
import { products } from './products.ts';
import { registry } from './registry.ts';
import { suppliers } from './suppliers.ts';

/**
 * The resources a PassportClient has, by name (docs/sdk.md#adding-a-resource): each is one file
 * whose function builds its methods over the typed API client. Adding a resource is its file and
 * one line here.
 */
export const RESOURCES = {
  products,
  passports,
  drafts,
  batches,
  items,
  suppliers,
  analytics,
  events,
  eventSubscriptions,
  imports,
  exports: exportFiles,
  accessGrants,
  dpps,
  registry,
  labelling,
} as const;

export type Resources = { readonly [K in keyof typeof RESOURCES]: ReturnType<(typeof RESOURCES)[K]> };

export function buildResources(api: Api): Resources {
  return Object.fromEntries(Object.entries(RESOURCES).map(([name, build]) => [name, build(api)])) as unknown as Resources;
}
