import { List } from '../pagination.ts';
import { init, ok, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { Body, Query, Registration } from '../types.ts';

export type RegistrySettingsBody = Body<'/v1/registry/settings', 'put'>;
export type CreateRegistrationsBody = Body<'/v1/registry/registrations', 'post'>;
/** The upload files' format: `json` (the CIRPASS-2 mock's entries) or `xml` (docs/registry.md#the-xml-file). */
export type RegistryFileFormat = Body<'/v1/registry/files', 'post'>['format'];
/** The registry's result file: CSV text or its bytes (docs/registry.md#the-result-file). */
export type RegistryResultFile = string | Blob | Uint8Array | ArrayBuffer;

/** The EU registry: the organization's settings and its registrations (issue 39, docs/registry.md). */
export const registry = (api: Api) => ({
  /** The settings of the key's environment (enabled false before they are first saved). */
  getSettings: (options?: RequestOptions) => ok(api.GET('/v1/registry/settings', { ...init(options) })),
  /** Replaces the settings: enabled, the operator identity, the facilities' GLNs and the commodity code. */
  updateSettings: (body: RegistrySettingsBody, options?: RequestOptions) => ok(api.PUT('/v1/registry/settings', { body, ...init(options) })),
  /** Creates the missing registrations of `{productIds}` or `{all: true}`, at most 1,000 a call (`hasMore`: call again). */
  createRegistrations: (body: CreateRegistrationsBody, options?: CreateOptions) => ok(api.POST('/v1/registry/registrations', { body, ...init(options) })),
  /** The registrations, filtered by status, granularity or productId, page after page (`for await`, or `.toArray()`). */
  listRegistrations: (query: Omit<Query<'/v1/registry/registrations', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
    new List<Registration>(
      (after) => ok(api.GET('/v1/registry/registrations', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
      (registration) => registration.id,
    ),
  getRegistration: (registrationId: string, options?: RequestOptions) =>
    ok(api.GET('/v1/registry/registrations/{registrationId}', { params: { path: { registrationId } }, ...init(options) })),
  /**
   * Fix and resubmit (docs/registry.md#fix-and-resubmit): a rejected registration, or one the
   * pre-checks hold, back to `pending_checks` without reasons, its entry following the settings as
   * they are now, to be checked again. Fix the cause first. A 409 names `status` for any other status.
   * Sent with an Idempotency-Key: a retry after a lost answer replays it.
   */
  resubmit: (registrationId: string, options?: CreateOptions) =>
    ok(api.POST('/v1/registry/registrations/{registrationId}/resubmit', { params: { path: { registrationId } }, ...init(options) })),
  /**
   * Builds the upload files for the registry's web form (docs/registry.md#files-out): the pre-checks
   * run, the entries that pass go in files of at most 100 (upload them in their order) and are
   * marked `submitted`; those held are in `pendingChecks` with their reasons. `more`: call again.
   * Not retried after a lost answer: it marks registrations (they are listed with `status: 'submitted'`).
   */
  buildFiles: (format: RegistryFileFormat = 'json', options?: RequestOptions) => ok(api.POST('/v1/registry/files', { body: { format }, ...init(options) })),
  /** Applies the registry's result file (CSV, at most 1 MiB): registered and rejected entries, each row whole or not at all (docs/registry.md#results-in). */
  uploadResults: (file: RegistryResultFile, options?: RequestOptions) =>
    ok(
      api.POST('/v1/registry/results', {
        // The file goes as it is: the serializer hands fetch the text or bytes instead of JSON.
        body: '',
        bodySerializer: () => file,
        ...init(options, { 'Content-Type': 'text/csv' }),
      }),
    ),
});
