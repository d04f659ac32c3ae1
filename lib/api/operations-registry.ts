import * as z from 'zod';
import {
  createdRegistrationsSchema,
  createRegistrationsSchema,
  MAX_REGISTRATION_PRODUCTS,
  MAX_REGISTRATIONS_PER_CALL,
  putRegistrySettingsSchema,
  registrationListQuerySchema,
  registrationListSchema,
  registrationSchema,
  registrySettingsSchema,
} from '../domain/registry/settings.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of the EU registry's settings and registrations (docs/registry.md#settings, docs/registry.md#registrations). */
const API_KEY_ERRORS = [401, 403, 429] as const;

export function registryOperations(): Record<string, OperationDoc> {
  return {
    'GET /v1/registry/settings': {
      summary: 'Get the registry settings',
      description:
        "The organization's EU registry settings in the credentials' environment: whether registration is enabled, the operator identity (its reoId as entries carry it), the facilities' GLNs and the commodity code; and which registry the environment registers with (test: acceptance, live: production). Before they are first saved: enabled false, the rest null or empty.",
      tag: 'Registry',
      responses: { 200: { description: 'The settings', schema: registrySettingsSchema } },
      errors: [...API_KEY_ERRORS],
    },
    'PUT /v1/registry/settings': {
      summary: 'Save the registry settings',
      description:
        'Replaces the settings as a whole. operator: {identifier, scheme} with scheme EORI, LEI, VAT or GLN, its form and check digits checked (422 naming operator.identifier); facilities: 1 to 20 GLNs with their check digits (422 naming facilities[n]); commodityCode: 6 (HS), 8 (CN) or 10 (TARIC) digits (422 naming commodityCode). enabled: true makes every passport version published, batch and item registered from then on add a registration (pending_checks) in its own transaction; in other functions within 10 s. Writes registry.settings.updated.',
      tag: 'Registry',
      body: putRegistrySettingsSchema,
      responses: { 200: { description: 'The saved settings', schema: registrySettingsSchema } },
      errors: [400, ...API_KEY_ERRORS, 413, 422],
    },
    'POST /v1/registry/registrations': {
      summary: 'Create the missing registrations',
      description: `Creates a registration (pending_checks) for each published passport (MODEL), batch (BATCH) and item (ITEM) of the products named (productIds, up to ${MAX_REGISTRATION_PRODUCTS}) or of every product (all: true) that has none: what was published before registration was enabled; or of the batches and items named (items: up to ${MAX_REGISTRATION_PRODUCTS} of {productId, serial} or {productId, lot}), each read first. At most ${MAX_REGISTRATIONS_PER_CALL} a call: hasMore true says to call again. Existing registrations are left as they are. 409 naming enabled when registration is not enabled; 404 naming productIds[n], items[n].productId or items[n].serial (or .lot) for an unknown one, nothing written; 422 for none or more than one of productIds, items and all. Writes one registry.registrations.created when it created any.`,
      tag: 'Registry',
      body: createRegistrationsSchema,
      responses: { 200: { description: 'How many were created', schema: createdRegistrationsSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
    },
    'GET /v1/registry/registrations': {
      summary: 'List registrations',
      description:
        'The registrations of this environment in id order (cursor form: limit 1–100, default 25; starting_after=<registration id>), filtered by status, granularity (MODEL, BATCH, ITEM) and productId; the filters apply to what is read, so a rare status among many registrations reads them all.',
      tag: 'Registry',
      query: registrationListQuerySchema,
      responses: { 200: { description: 'A page of registrations', schema: registrationListSchema } },
      errors: [400, ...API_KEY_ERRORS, 422],
    },
    'GET /v1/registry/registrations/{registrationId}': {
      summary: 'Get a registration',
      description: 'One registration of this environment: its entry, status, reasons, the registry id and the proof of registration; any other id is 404.',
      tag: 'Registry',
      responses: { 200: { description: 'The registration', schema: registrationSchema } },
      errors: [...API_KEY_ERRORS, 404],
    },
    'POST /v1/registry/registrations/{registrationId}/resubmit': {
      summary: 'Resubmit a registration',
      description:
        "Fix and resubmit (docs/registry.md#fix-and-resubmit): a rejected registration, or one the pre-checks hold (pending_checks), goes back to pending_checks without reasons, its entry's reoId, facilitiesId and commodityCode taken from the settings as they are now, so that it is checked again: through the registry's API (submission api) the outbox takes it at once; with upload files, the next POST /v1/registry/files does. Fix the cause first (the settings, the product, its brand domain); a cause not fixed holds it again with its reasons. Writes registry.registration.resubmitted; a registration already pending_checks without reasons is answered as it is. 409 conflict naming status for any other status (ready, submitted, registered, deactivated), naming enabled when registration is off; 404 for an id not of this environment. Takes an Idempotency-Key.",
      tag: 'Registry',
      responses: { 200: { description: 'The registration, pending_checks', schema: registrationSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 409],
    },
  };
}

export const REGISTRY_PATH_PARAMETERS = {
  registrationId: { description: 'A registration id (reg_…)', schema: z.string() },
};
