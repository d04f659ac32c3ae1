import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, setCsrfToken, whenSignedOut, type Environment, type Session } from './api.ts';
import { ErrorNotice } from './components.tsx';
import { Layout } from './layout.tsx';
import { AccessPage } from './pages/access.tsx';
import { ActivityPage } from './pages/activity.tsx';
import { DomainsPage } from './pages/domains.tsx';
import { LegalTermsPage } from './pages/legal-terms.tsx';
import { ImportsPage } from './pages/imports.tsx';
import { KeysPage } from './pages/keys.tsx';
import { ProductPage } from './pages/product.tsx';
import { ProductsPage } from './pages/products.tsx';
import { RegistryPage } from './pages/registry.tsx';
import { WebhookPage, WebhooksPage } from './pages/webhooks.tsx';
import { EventSubscriptionPage, EventSubscriptionsPage } from './pages/event-subscriptions.tsx';
import { navigate, useRoute, type Route } from './router.ts';

type State = { kind: 'loading' } | { kind: 'signed-out'; reason?: string } | { kind: 'failed'; error: unknown } | { kind: 'signed-in'; session: Session };

/** Where the identity provider sends the browser back to: this page, wherever it is served. */
const loginUrl = (): string => `/v1/auth/login?returnTo=${encodeURIComponent(window.location.pathname)}`;

const BRAND_MARK = 'M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm11-2h2v2h-2zm-3 0h2v4h-2zm5 3h3v2h-3zm-5 3h4v2h-4zm6 0h2v2h-2z';

/** The brand's mark and name, large, as the sign-in and loading screens show them. */
function BrandLarge() {
  return (
    <div class="brand brand-large">
      <svg aria-hidden="true" viewBox="0 0 24 24" width="32" height="32">
        <path fill="currentColor" d={BRAND_MARK} />
      </svg>
      <span>Product Passport</span>
    </div>
  );
}

/** The first screen while the session is read: the brand, a quiet progress line, the words for screen readers. */
function LoadingScreen() {
  return (
    <main id="main" class="signin loading-screen" aria-busy="true">
      <div class="signin-card loading-card">
        <BrandLarge />
        <div class="loading-bar" aria-hidden="true">
          <span />
        </div>
        <p role="status">Loading the dashboard…</p>
      </div>
    </main>
  );
}

function SignIn(props: { reason?: string }) {
  useEffect(() => {
    document.title = 'Sign in · Product Passport';
  }, []);
  return (
    <main id="main" class="signin">
      <div class="signin-card">
        <BrandLarge />
        <h1>Sign in to the dashboard</h1>
        <p>Manage your products, digital product passports, API keys and scan analytics.</p>
        {props.reason ? <p class="notice notice-info" role="status">{props.reason}</p> : null}
        <a class="button button-block" href={loginUrl()}>
          Sign in
        </a>
        <p class="hint">You sign in with your organization's identity provider.</p>
      </div>
    </main>
  );
}

function Page(props: { route: Route; session: Session; onSwitch: (change: { environment: Environment }) => Promise<void> }) {
  const { route, session } = props;
  // A page's data belongs to one organization and environment: remount when the session moves.
  const key = `${session.organization.id}/${session.environment}`;
  switch (route.page) {
    case 'products':
      return <ProductsPage key={key} environment={session.environment} onSwitchEnvironment={(environment) => props.onSwitch({ environment })} />;
    case 'product':
      return <ProductPage key={`${key}/${route.productId}`} productId={route.productId} tab={route.tab} unit={route.unit} />;
    case 'keys':
      return <KeysPage key={key} environment={session.environment} />;
    case 'webhooks':
      return <WebhooksPage key={key} environment={session.environment} />;
    case 'webhook':
      return <WebhookPage key={`${key}/${route.endpointId}`} endpointId={route.endpointId} />;
    case 'domains':
      return <DomainsPage key={key} environment={session.environment} />;
    case 'event-subscriptions':
      return <EventSubscriptionsPage key={key} environment={session.environment} />;
    case 'event-subscription':
      return <EventSubscriptionPage key={`${key}/${route.subscriptionId}`} subscriptionId={route.subscriptionId} />;
    case 'imports':
      return <ImportsPage key={key} environment={session.environment} importId={route.importId} />;
    case 'activity':
      return <ActivityPage key={key} environment={session.environment} user={{ id: session.user.id, email: session.user.email }} />;
    case 'access':
      return <AccessPage key={key} environment={session.environment} />;
    case 'legal-terms':
      return <LegalTermsPage key={key} environment={session.environment} />;
    case 'registry':
      return <RegistryPage key={key} environment={session.environment} productId={route.productId} />;
    default:
      return (
        <div class="empty">
          <h1>Page not found</h1>
          <p>
            <a href="#/products">Go to your products</a>
          </p>
        </div>
      );
  }
}

function App() {
  const route = useRoute();
  const [state, setState] = useState<State>({ kind: 'loading' });

  const load = useCallback(async () => {
    try {
      const session = await api<Session>('GET', '/v1/auth/session', { quiet401: true });
      setCsrfToken(session.csrfToken);
      setState({ kind: 'signed-in', session });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setState({ kind: 'signed-out' });
      else setState({ kind: 'failed', error });
    }
  }, []);

  useEffect(() => {
    whenSignedOut(() => setState({ kind: 'signed-out', reason: 'Your session has ended. Sign in again to continue.' }));
    void load();
  }, [load]);

  if (state.kind === 'loading') return <LoadingScreen />;
  if (state.kind === 'signed-out') return <SignIn {...(state.reason ? { reason: state.reason } : {})} />;
  if (state.kind === 'failed') {
    return (
      <main id="main" class="signin">
        <div class="signin-card">
          <h1>The dashboard could not start</h1>
          <ErrorNotice error={state.error} />
          <button type="button" class="button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      </main>
    );
  }

  const switchSession = async (change: { orgId?: string; environment?: Environment }) => {
    const session = await api<Session>('POST', '/v1/auth/session', { body: change });
    setCsrfToken(session.csrfToken);
    setState({ kind: 'signed-in', session });
    // Resources of one organization and environment do not exist in another.
    if (route.page === 'product' || route.page === 'webhook') navigate(route.page === 'product' ? '#/products' : '#/webhooks');
    if (route.page === 'imports' && route.importId) navigate('#/imports');
    if (route.page === 'event-subscription') navigate('#/event-subscriptions');
    if (route.page === 'registry' && route.productId) navigate('#/registry');
  };
  const signOut = async () => {
    try {
      await api('POST', '/v1/auth/logout');
    } finally {
      setCsrfToken('');
      setState({ kind: 'signed-out', reason: 'You have signed out.' });
    }
  };

  return (
    <Layout session={state.session} route={route} onSwitch={switchSession} onSignOut={signOut}>
      <Page route={route} session={state.session} onSwitch={switchSession} />
    </Layout>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
