import { describe, expect, it } from 'vitest';
import { routeKey, ROUTES } from '../../lib/api/routes.ts';
import { FUNCTIONS } from '../../infra/functions.ts';

describe('route table rules', () => {
  it('gives every function with an Idempotency-Key route what Powertools idempotency does to the table', () => {
    for (const route of ROUTES.filter((r) => r.idempotent)) {
      const grants = FUNCTIONS[route.function].grants.table;
      for (const action of ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'] as const) {
        expect(grants, `${routeKey(route)} needs ${action}`).toContain(action);
      }
    }
  });

  it('marks every POST that creates something, or sends a registration back to the pre-checks, as idempotent', () => {
    const creates = ['POST /v1/products', 'POST /v1/passports', 'POST /v1/suppliers', 'POST /v1/auth/api-keys', 'POST /v1/webhooks/endpoints', 'POST /v1/domains', 'POST /v1/imports', 'POST /v1/event-subscriptions', 'POST /v1/handovers', 'POST /v1/access-grants', 'POST /v1/access-requests', 'POST /v1/registry/registrations', 'POST /v1/labelling/sign-offs', 'POST /v1/transfers'];
    // A retried resubmission whose registration the outbox took meanwhile replays its 200 rather than a 409 (docs/registry.md#fix-and-resubmit).
    const resubmits = ['POST /v1/registry/registrations/{registrationId}/resubmit'];
    expect(ROUTES.filter((r) => r.idempotent).map(routeKey).sort()).toEqual([...creates, ...resubmits].sort());
  });
});
