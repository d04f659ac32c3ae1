import { DEMO_ACCOUNT, type DevAccount } from '../../infra/local/identity-provider.ts';

/**
 * Accounts of the suite's development identity provider. A test that signs in through it has an
 * account of its own, so another test's memberships never change where its sign-in lands (a new
 * session starts in the account's first organization).
 */

/** The sign-in tests' account (test/integration/auth.test.ts). */
export const LOGIN_TEST_ACCOUNT: DevAccount = { email: 'login-test@example.com', password: 'login-test', name: 'Login Test' };

/** The dashboard browser walkthrough's account (test/e2e/dashboard.test.ts). */
export const DASHBOARD_ACCOUNT: DevAccount = { email: 'dashboard-e2e@example.com', password: 'dashboard-e2e', name: 'Dana Dashboard' };

/** Every account the suite's identity provider knows. */
export const TEST_ACCOUNTS: DevAccount[] = [DEMO_ACCOUNT, LOGIN_TEST_ACCOUNT, DASHBOARD_ACCOUNT];
