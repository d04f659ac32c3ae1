import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import { Provider, type KoaishContext } from 'oidc-provider';

/**
 * The development identity provider of the local stack: oidc-provider as a real OpenID Connect
 * issuer (discovery, JWKS, authorization code + PKCE, signed ID tokens) on its own loopback port,
 * with a plain sign-in form and a few seeded accounts. The service's sign-in code talks to it
 * exactly as it talks to Amazon Cognito in AWS.
 */
export interface DevAccount {
  email: string;
  password: string;
  name: string;
  /**
   * An inspector of a market surveillance authority (docs/access.md#market-surveillance-authorities):
   * only such an account signs in through the inspectors' client, as only an authority's staff sign
   * in at its own identity provider.
   */
  authority?: boolean;
}

/** The seeded account; infra/local/demo.ts makes it a member of the demo organization. */
export const DEMO_ACCOUNT: DevAccount = { email: 'demo@example.com', password: 'demo', name: 'Demo User' };

/** The seeded inspector of a market surveillance authority: it signs in at /inspect/{dppId}, never to the dashboard's organizations. */
export const INSPECTOR_ACCOUNT: DevAccount = { email: 'inspector@authority.example', password: 'inspector', name: 'Ines Inspector', authority: true };

export const DEV_CLIENT_ID = 'passport-dashboard';

/** The inspectors' client (public, PKCE): the local stack trusts this provider with it as an authority's (AUTHORITY_ISSUERS). */
export const INSPECT_CLIENT_ID = 'passport-inspect';

/** The name the local stack gives this provider as a trusted authority's. */
export const DEV_AUTHORITY_NAME = 'Development market surveillance authority';

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  /** The inspectors' client id, when the provider has the inspectors' client (`inspectRedirectUris`). */
  inspectClientId?: string;
  stop(): Promise<void>;
}

/** A stable subject per account, as a real provider would have (not the email). */
const subjectOf = (email: string): string => `dev_${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24)}`;

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function loginPage(uid: string, error?: string, email = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in: development identity provider</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;box-sizing:border-box}input{margin:.25rem 0 1rem;padding:.5rem}button{padding:.6rem}p.error{color:#a00}</style></head>
<body>
<h1>Sign in</h1>
<p>Development identity provider of the local Product Passport stack.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
<label for="email">Email</label><input id="email" name="email" type="email" required value="${escapeHtml(email)}">
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button type="submit">Sign in</button>
</form>
</body>
</html>`;
}

/**
 * oidc-provider's storage, in memory: sign-ins in progress, codes, grants and provider sessions
 * (they need not survive a restart). Its own built-in one warns on every start.
 */
type Payload = Record<string, unknown> & { uid?: string; grantId?: string; consumed?: number };
type Entry = { payload: Payload; expiresAt: number };

function memoryAdapter() {
  const stores = new Map<string, Map<string, Entry>>();
  return class MemoryAdapter {
    private readonly store: Map<string, Entry>;
    constructor(name: string) {
      this.store = stores.get(name) ?? new Map<string, Entry>();
      stores.set(name, this.store);
    }
    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      this.store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
    }
    async find(id: string): Promise<Payload | undefined> {
      const entry = this.store.get(id);
      if (!entry || entry.expiresAt > Date.now()) return entry?.payload;
      this.store.delete(id);
      return undefined;
    }
    async findByUid(uid: string): Promise<Payload | undefined> {
      for (const [id, entry] of this.store) if (entry.payload.uid === uid) return this.find(id);
      return undefined;
    }
    async findByUserCode(): Promise<undefined> {
      return undefined;
    }
    async consume(id: string): Promise<void> {
      const entry = this.store.get(id);
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      this.store.delete(id);
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const store of stores.values()) {
        for (const [id, entry] of store) if (entry.payload.grantId === grantId) store.delete(id);
      }
    }
  };
}

/** Lifetimes of the provider's artifacts, in seconds. */
const TTL = { Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 };

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 16_384) req.destroy(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(html);
}

/**
 * Starts the provider on a free loopback port. `redirectUris` are the service's callback URLs
 * registered for the public dashboard client (PKCE, no secret); `inspectRedirectUris`, those of the
 * inspectors' client (INSPECT_CLIENT_ID), through which only `authority` accounts sign in.
 * `authorityAccounts` (default: the seeded inspector) are known beside `accounts`.
 */
export async function startIdentityProvider(options: {
  redirectUris: string[];
  inspectRedirectUris?: string[];
  accounts?: DevAccount[];
  authorityAccounts?: DevAccount[];
}): Promise<IdentityProvider> {
  const accounts = new Map([...(options.accounts ?? [DEMO_ACCOUNT]), ...(options.authorityAccounts ?? [INSPECTOR_ACCOUNT])].map((a) => [subjectOf(a.email), a] as const));
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const issuer = `http://localhost:${port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: DEV_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
      ...(options.inspectRedirectUris
        ? [
            {
              client_id: INSPECT_CLIENT_ID,
              token_endpoint_auth_method: 'none',
              redirect_uris: options.inspectRedirectUris,
              grant_types: ['authorization_code'],
              response_types: ['code'],
            },
          ]
        : []),
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'dev-1' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: true, name: account.name }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Put the email in the ID token itself, as Cognito does.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // The dashboard is a first-party client: no consent screen, the requested scopes are granted.
    loadExistingGrant: async (ctx: KoaishContext) => {
      const { client, session, result, provider: self } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const existing = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (existing) return self.Grant.find(existing);
      const grant = new self.Grant({ accountId: session.accountId, clientId: client.clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    pkce: { required: () => true },
    adapter: memoryAdapter(),
    ttl: Object.fromEntries(Object.entries(TTL).map(([name, seconds]) => [name, () => seconds])),
  });
  const callback = provider.callback();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(path);
    if (!interaction) {
      callback(req, res);
      return;
    }
    const uid = interaction[1] ?? '';
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === 'GET' && !interaction[2]) return sendHtml(res, 200, loginPage(uid));
        if (req.method !== 'POST' || !interaction[2]) return sendHtml(res, 405, 'Method not allowed');
        const form = await readForm(req);
        const email = (form.get('email') ?? '').trim();
        const sub = subjectOf(email);
        const account = accounts.get(sub);
        if (!account || account.password !== form.get('password')) {
          return sendHtml(res, 401, loginPage(uid, 'Wrong email or password.', email));
        }
        // The inspectors' client stands for an authority's own provider: only its inspectors sign in there.
        if (details.params.client_id === INSPECT_CLIENT_ID && !account.authority) {
          return sendHtml(res, 403, loginPage(uid, 'This account is no inspector of a market surveillance authority.', email));
        }
        await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      } catch {
        if (!res.headersSent) sendHtml(res, 400, 'This sign-in has expired or is not known here. Start again from the service.');
      }
    })();
  });

  return {
    issuer,
    clientId: DEV_CLIENT_ID,
    ...(options.inspectRedirectUris ? { inspectClientId: INSPECT_CLIENT_ID } : {}),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
