import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Environment, Session } from './api.ts';
import { ErrorNotice } from './components.tsx';
import { ENVIRONMENTS } from './constants.ts';
import type { Route } from './router.ts';

interface LayoutProps {
  session: Session;
  route: Route;
  onSwitch: (change: { orgId?: string; environment?: Environment }) => Promise<void>;
  onSignOut: () => Promise<void>;
  children: ComponentChildren;
}

const NAV = [
  { href: '#/products', label: 'Products', pages: ['products', 'product'] },
  { href: '#/keys', label: 'API keys', pages: ['keys'] },
  { href: '#/webhooks', label: 'Webhooks', pages: ['webhooks', 'webhook'] },
  { href: '#/domains', label: 'Domains', pages: ['domains'] },
  { href: '#/event-subscriptions', label: 'Event subscriptions', pages: ['event-subscriptions', 'event-subscription'] },
  { href: '#/access', label: 'Access', pages: ['access'] },
  { href: '#/imports', label: 'Import & export', pages: ['imports'] },
  { href: '#/legal-terms', label: 'Legal terms', pages: ['legal-terms'] },
  { href: '#/registry', label: 'EU registry', pages: ['registry'] },
  { href: '#/activity', label: 'Activity', pages: ['activity'] },
] as const;

/** The frame of every signed-in page: test-data banner, header with switchers, navigation. */
export function Layout(props: LayoutProps) {
  const { session } = props;
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const isTest = session.environment === 'test';
  const switchTo = async (change: { orgId?: string; environment?: Environment }) => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onSwitch(change);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class={`app env-${session.environment}`}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      {isTest ? (
        <div class="test-banner" role="note" data-testid="test-banner">
          <strong>TEST DATA</strong> You are in the test environment: products, keys and scans here never reach live
          customers.
        </div>
      ) : null}
      <header class="topbar">
        <div class="topbar-inner">
          <a class="brand" href="#/products">
            <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
              <path fill="currentColor" d="M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm11-2h2v2h-2zm-3 0h2v4h-2zm5 3h3v2h-3zm-5 3h4v2h-4zm6 0h2v2h-2z" />
            </svg>
            <span>Product Passport</span>
          </a>
          <div class="switchers">
            <label class="switcher">
              <span>Organization</span>
              <select
                value={session.organization.id}
                disabled={busy}
                onChange={(event) => void switchTo({ orgId: event.currentTarget.value })}
                data-testid="org-switcher"
              >
                {session.organizations.map((org) => (
                  <option key={org.id} value={org.id}>
                    {org.name || org.id}
                  </option>
                ))}
              </select>
            </label>
            <fieldset class="env-switch" disabled={busy}>
              <legend>Environment</legend>
              {ENVIRONMENTS.map((env) => (
                <label key={env} class={`env-option env-option-${env}${session.environment === env ? ' is-current' : ''}`}>
                  <input
                    type="radio"
                    name="environment"
                    value={env}
                    checked={session.environment === env}
                    onChange={() => void switchTo({ environment: env })}
                  />
                  <span>{env === 'live' ? 'Live' : 'Test'}</span>
                </label>
              ))}
            </fieldset>
            <div class="user">
              <span class="user-email" title={session.user.email}>
                {session.user.name ?? session.user.email}
              </span>
              <button type="button" class="button button-ghost button-small" onClick={() => void props.onSignOut()}>
                Sign out
              </button>
            </div>
          </div>
        </div>
        <nav class="tabs-nav" aria-label="Main">
          <ul>
            {NAV.map((item) => {
              const current = (item.pages as readonly string[]).includes(props.route.page);
              return (
                <li key={item.href}>
                  <a href={item.href} aria-current={current ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      <main id="main" class="content">
        {error ? <ErrorNotice error={error} title="Could not switch" /> : null}
        {props.children}
      </main>
      <footer class="footer">
        <span>
          {session.organization.name} · <span class="mono">{session.organization.id}</span> · {isTest ? 'test' : 'live'} environment
        </span>
      </footer>
    </div>
  );
}
