import type { DevAccount } from '../../infra/local/identity-provider.ts';

/**
 * An account of the suite's development identity provider for the dashboard browser test alone,
 * so that its memberships never change where another test's sign-in (as the demo user) lands.
 */
export const DASHBOARD_ACCOUNT: DevAccount = { email: 'dashboard-e2e@example.com', password: 'dashboard-e2e', name: 'Dana Dashboard' };
