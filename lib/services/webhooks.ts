import { deleteEndpoint, getEndpointById, listEndpoints, putEndpoint } from '../data/webhook-endpoints.ts';
import { eventPut } from '../data/events.ts';
import { newEvent, type EventType, type Origin } from '../domain/events.ts';
import { newPrefixedId, randomString } from '../domain/ids.ts';
import type { Tenant } from '../domain/tenant.ts';
import {
  defaultMapping,
  rotatedSecrets,
  toEndpointView,
  type CreateEndpointInput,
  type UpdateEndpointInput,
  type WebhookEndpointRecord,
} from '../domain/webhook.ts';
import { NotFoundError, ValidationError } from '../http/errors.ts';
import { SERVICE_ORIGIN } from './service-origin.ts';

const newSecret = (): string => `whsec_${randomString(32)}`;

/**
 * The put of an endpoint's event (docs/lifecycle.md#event-log), in the log of the endpoint's own
 * environment; the object is the endpoint's API form, which holds no secret.
 */
const endpointEvent = (type: EventType, endpoint: WebhookEndpointRecord, origin: Origin, now: string) =>
  eventPut({ orgId: endpoint.orgId, environment: endpoint.environment }, newEvent(type, toEndpointView(endpoint), origin, now));

/** Creates an endpoint in the organization; its secret is returned here and never again. */
export async function createEndpoint(
  tenant: Tenant,
  input: CreateEndpointInput,
  origin: Origin = SERVICE_ORIGIN,
  now = new Date().toISOString(),
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const mapping = input.mapping ?? defaultMapping(input.source);
  if (!mapping) throw new ValidationError('A custom source needs a mapping.', 'mapping');
  const secret = newSecret();
  const endpoint: WebhookEndpointRecord = {
    endpointId: newPrefixedId('whe'),
    orgId: tenant.orgId,
    environment: input.environment ?? tenant.environment,
    source: input.source,
    defaultCategory: input.defaultCategory,
    mapping,
    secrets: [{ secret, createdAt: now }],
    ...(input.description ? { description: input.description } : {}),
    ...(input.signatureScheme ? { signatureScheme: input.signatureScheme } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await putEndpoint(endpoint, undefined, [endpointEvent('webhook_endpoint.created', endpoint, origin, now)]);
  return { endpoint, secret };
}

/** The organization's endpoint, or 404 (also for another organization's endpoint). */
export async function requireEndpoint(orgId: string, endpointId: string): Promise<WebhookEndpointRecord> {
  const endpoint = /^whe_[0-9a-z]{20}$/.test(endpointId) ? await getEndpointById(endpointId) : undefined;
  if (!endpoint || endpoint.orgId !== orgId) throw new NotFoundError(`No webhook endpoint with id '${endpointId}'.`, { param: 'endpointId' });
  return endpoint;
}

export const endpointsOf = (orgId: string): Promise<WebhookEndpointRecord[]> => listEndpoints(orgId);

async function replace(current: WebhookEndpointRecord, next: WebhookEndpointRecord, origin: Origin): Promise<WebhookEndpointRecord> {
  if (!(await putEndpoint(next, current.updatedAt, [endpointEvent('webhook_endpoint.updated', next, origin, next.updatedAt)]))) {
    throw new ValidationError('The endpoint changed while this request ran; read it again and retry.', 'endpointId');
  }
  return next;
}

export async function updateEndpoint(endpoint: WebhookEndpointRecord, changes: UpdateEndpointInput, origin: Origin = SERVICE_ORIGIN): Promise<WebhookEndpointRecord> {
  return replace(endpoint, {
    ...endpoint,
    ...(changes.mapping ? { mapping: changes.mapping } : {}),
    ...(changes.defaultCategory ? { defaultCategory: changes.defaultCategory } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.signatureScheme ? { signatureScheme: changes.signatureScheme } : {}),
    updatedAt: new Date().toISOString(),
  }, origin);
}

/**
 * Issues a new secret. The previous one keeps verifying for 24 hours, so the PIM can switch
 * without losing a delivery; any older secret stops at once.
 */
export async function rotateSecret(endpoint: WebhookEndpointRecord, now = Date.now(), origin: Origin = SERVICE_ORIGIN): Promise<{ endpoint: WebhookEndpointRecord; secret: string; previousValidUntil: string }> {
  const secret = newSecret();
  const { secrets, previousValidUntil } = rotatedSecrets(endpoint.secrets, secret, now);
  const updated = await replace(endpoint, { ...endpoint, secrets, updatedAt: new Date(now).toISOString() }, origin);
  return { endpoint: updated, secret, previousValidUntil };
}

export const removeEndpoint = (endpoint: WebhookEndpointRecord, origin: Origin = SERVICE_ORIGIN, now = new Date().toISOString()): Promise<void> =>
  deleteEndpoint(endpoint, [endpointEvent('webhook_endpoint.deleted', endpoint, origin, now)]);
