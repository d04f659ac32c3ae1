import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createOrganization } from '../../lib/services/organizations.ts';
import { addUserToOrganization } from '../../lib/services/users.ts';
import { getOrganization, type Organization } from '../../lib/data/organizations.ts';
import { DEMO_ACCOUNT } from './identity-provider.ts';

export interface DemoCredentials {
  orgId: string;
  name: string;
  keys: { live: string; test: string };
}

/**
 * The demo organization of a local stack: created on first start, reused afterwards while its
 * credentials file and its data both exist. The development identity provider's demo account
 * (demo@example.com) is always a member, so the dashboard sign-in works from the first start.
 */
export async function ensureDemoOrganization(file: string): Promise<{ credentials: DemoCredentials; created: boolean }> {
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
    const existing = await getOrganization(saved.orgId);
    if (existing) {
      await addDemoUser(existing);
      return { credentials: saved, created: false };
    }
  }
  const { organization, keys } = await createOrganization('Demo Winery');
  await addDemoUser(organization);
  const credentials: DemoCredentials = {
    orgId: organization.orgId,
    name: organization.name,
    keys: { live: keys.live.key, test: keys.test.key },
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { credentials, created: true };
}

const addDemoUser = (organization: Organization): Promise<unknown> => addUserToOrganization(organization, DEMO_ACCOUNT.email);
