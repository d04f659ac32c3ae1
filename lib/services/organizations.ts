import { insertOrganization, type Organization } from '../data/organizations.ts';
import { newPrefixedId } from '../domain/ids.ts';
import { API_KEY_SCOPES } from '../domain/scopes.ts';
import { ENVIRONMENTS, type Environment } from '../domain/tenant.ts';
import { seedSandbox } from './sandbox.ts';
import { issueApiKey } from './api-keys.ts';

export interface NewOrganization {
  organization: Organization;
  keys: Record<Environment, { keyId: string; key: string }>;
}

/**
 * Creates an organization with one live and one test key holding every API scope, and fills its
 * test environment with sandbox data (docs/api.md#the-sandbox) unless `sandbox` is false: the test
 * suite's organizations skip it where a test reads none of it.
 */
export async function createOrganization(name: string, options: { sandbox?: boolean } = {}): Promise<NewOrganization> {
  const now = new Date().toISOString();
  const organization: Organization = { orgId: newPrefixedId('org', 16), name, createdAt: now };
  await insertOrganization(organization);
  const entries = await Promise.all(
    ENVIRONMENTS.map(async (environment) => {
      const { key, record } = await issueApiKey({
        orgId: organization.orgId,
        environment,
        scopes: API_KEY_SCOPES,
        name: `Default ${environment} key`,
        now,
      });
      return [environment, { keyId: record.keyId, key }] as const;
    }),
  );
  if (options.sandbox !== false) await seedSandbox(organization.orgId);
  return { organization, keys: Object.fromEntries(entries) as NewOrganization['keys'] };
}
