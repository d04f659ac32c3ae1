import { List } from '../pagination.ts';
import { init, ok, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { Body, Query, Registration } from '../types.ts';

export type RegistrySettingsBody = Body<'/v1/registry/settings', 'put'>;
export type CreateRegistrationsBody = Body<'/v1/registry/registrations', 'post'>;

/** The EU registry: the organization's settings and its registrations (issue 39, docs/registry.md). */
export const registry = (api: Api) => ({
  /** The settings of the key's environment (enabled false before they are first saved). */
  getSettings: (options?: RequestOptions) => ok(api.GET('/v1/registry/settings', { ...init(options) })),
  /** Replaces the settings: enabled, the operator identity, the facilities' GLNs and the commodity code. */
  updateSettings: (body: RegistrySettingsBody, options?: RequestOptions) => ok(api.PUT('/v1/registry/settings', { body, ...init(options) })),
  /** Creates the missing registrations of `{productIds}` or `{all: true}`, at most 1,000 a call (`hasMore`: call again). */
  createRegistrations: (body: CreateRegistrationsBody, options?: CreateOptions) => ok(api.POST('/v1/registry/registrations', { body, ...init(options) })),
  /** The registrations, filtered by status, granularity or productId, page after page. */
  listRegistrations: (query: Omit<Query<'/v1/registry/registrations', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
    new List<Registration>(
      (after) => ok(api.GET('/v1/registry/registrations', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
      (registration) => registration.id,
    ),
  getRegistration: (registrationId: string, options?: RequestOptions) =>
    ok(api.GET('/v1/registry/registrations/{registrationId}', { params: { path: { registrationId } }, ...init(options) })),
});
