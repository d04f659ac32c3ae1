/**
 * The types of the event log (docs/lifecycle.md#event-log), in a module that imports nothing so the
 * dashboard can offer them as a filter. Each state change writes exactly one event, in the same
 * transaction as the change; the route table says which type each mutating route writes.
 */
export const EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.withdrawn',
  'product.reinstated',
  'passport.published',
  'passport.draft.updated',
  'passport.draft.deleted',
  'supplier.created',
  'api_key.created',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_delivery.ingested',
  'domain.created',
  'domain.updated',
  'domain.deleted',
  'domain.verified',
  'import.created',
  'event_subscription.created',
  'event_subscription.updated',
  'event_subscription.deleted',
  'labelling_term.updated',
  'labelling_term.deleted',
  // A compliance officer's sign-off of a language, and the setting that offers only the languages signed off (docs/labelling.md#sign-off).
  'labelling.sign_off.created',
  'labelling.settings.updated',
  // The EU registry (docs/registry.md#settings, docs/registry.md#registrations): the settings saved, and registrations created on demand (one event per call).
  'registry.settings.updated',
  'registry.registrations.created',
  // A rejected or held registration sent back to the pre-checks after its cause was fixed (docs/registry.md#fix-and-resubmit).
  'registry.registration.resubmitted',
  // Batches and serialised items (docs/api.md#batches-and-items): each change of one, and a bulk registration's one summary per chunk.
  'batch.created',
  'batch.updated',
  'batch.withdrawn',
  'item.created',
  'item.updated',
  'item.withdrawn',
  'item.imported',
  // A battery's passport ceased: the organization responsible for the waste battery declared it recycled (docs/battery.md#a-batterys-life).
  'item.recycled',
  // A battery handed over to its second life or as waste (docs/battery.md#second-life): in both organizations' logs.
  'handover.offered',
  'handover.accepted',
  'handover.cancelled',
  // A product transferred to another organization, a change of economic operator (docs/transfers.md): in both organizations' logs.
  'transfer.offered',
  'transfer.accepted',
  'transfer.declined',
  'transfer.cancelled',
  'transfer.completed',
  // Access beyond the public tier (docs/access.md): grants given and revoked, and every read of restricted elements by another organization.
  'access_grant.created',
  'access_grant.revoked',
  'passport.accessed',
  // Requests for access by a person with a legitimate interest (docs/access.md#access-requests): in both organizations' logs.
  'access_request.created',
  'access_request.approved',
  'access_request.refused',
  // The EU registry (docs/registry.md#files-out): a registration put in an upload file, and the registry's answer read from its result file.
  'registry.registration.submitted',
  'registry.registration.registered',
  'registry.registration.rejected',
  // An ITEM entry deactivated at the registry (its item withdrawn or recycled, docs/registry.md#lifecycle); reactivated is registered again.
  'registry.registration.deactivated',
  // A registered entry's proof of registration renewed before its 90 days ran out (docs/registry.md#proof-of-registration).
  'registry.registration.proof_renewed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Who caused an event: an API key, a dashboard user, a signed webhook delivery, the service itself
 * (an import's worker), another organization (a grantee's or an authority's read or write of the
 * owner's passport: its organization id, never its key's; docs/access.md#what-is-logged), or an
 * inspector of a market surveillance authority signed in with the authority's own identity provider
 * (its subject there; docs/access.md#market-surveillance-authorities).
 */
export const ACTOR_TYPES = ['api_key', 'user', 'webhook', 'system', 'organization', 'inspector'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
