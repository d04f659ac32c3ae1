import { List } from '../pagination.ts';
import { init, ok, type Api, type CreateOptions, type RequestOptions } from '../request.ts';
import type { AccessGrant, Body, Query } from '../types.ts';

export type CreateAccessGrantBody = Body<'/v1/access-grants', 'post'>;

/** Access grants: another organization reads a tier of the owner's passports (issue 28, docs/access.md). */
export const accessGrants = (api: Api) => ({
  /** Grants an organization a tier, for all products or some, optionally until a date. */
  create: (body: CreateAccessGrantBody, options?: CreateOptions) => ok(api.POST('/v1/access-grants', { body, ...init(options) })),
  /** The grants the organization gave, or with `as: 'grantee'` those it holds. */
  list: (query: Omit<Query<'/v1/access-grants', 'get'>, 'starting_after'> = {}, options?: RequestOptions) =>
    new List<AccessGrant>(
      (after) => ok(api.GET('/v1/access-grants', { params: { query: after ? { ...query, starting_after: after } : query }, ...init(options) })),
      (grant) => grant.id,
    ),
  get: (grantId: string, options?: RequestOptions) => ok(api.GET('/v1/access-grants/{grantId}', { params: { path: { grantId } }, ...init(options) })),
  /** Revokes the grant. */
  delete: (grantId: string, options?: RequestOptions) => ok(api.DELETE('/v1/access-grants/{grantId}', { params: { path: { grantId } }, ...init(options) })),
});
