import { insertMembership, listMembershipsOfUser, type Membership } from '../data/memberships.ts';
import type { Organization } from '../data/organizations.ts';
import { findUserIdByEmail, findUserIdByIdentity, getUser, insertUser, linkIdentity, type User } from '../data/users.ts';
import { newPrefixedId } from '../domain/ids.ts';
import { PermissionError } from '../http/errors.ts';

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** The user with this email, created (without any sign-in identity yet) when there is none. */
export async function findOrCreateUser(email: string, name?: string): Promise<User> {
  const normalized = normalizeEmail(email);
  for (let attempt = 0; attempt < 3; attempt++) {
    const existing = await findUserIdByEmail(normalized);
    const user = existing ? await getUser(existing) : undefined;
    if (user) return user;
    const created: User = {
      userId: newPrefixedId('usr'),
      email: normalized,
      ...(name ? { name } : {}),
      createdAt: new Date().toISOString(),
    };
    // 'duplicate': a concurrent call created the user first; read it on the next turn.
    if ((await insertUser(created)) === 'created') return created;
  }
  throw new Error('Could not create or read the user.');
}

/** Makes the user with `email` a member of `organization` (creating the user when needed). */
export async function addUserToOrganization(
  organization: Organization,
  email: string,
): Promise<{ user: User; membership: Membership; added: boolean }> {
  const user = await findOrCreateUser(email);
  const membership: Membership = {
    orgId: organization.orgId,
    orgName: organization.name,
    userId: user.userId,
    email: user.email,
    createdAt: new Date().toISOString(),
  };
  const added = (await insertMembership(membership)) === 'created';
  return { user, membership, added };
}

/** What the identity provider's verified ID token says about the person signing in. */
export interface SignInIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

/**
 * Finds or provisions the user of a sign-in: by the identity (issuer + subject) seen before; else
 * by a verified email address, which links a user that an administrator added by email; else a
 * new user. Returns the user and their organizations.
 */
export async function signIn(identity: SignInIdentity): Promise<{ user: User; memberships: Membership[] }> {
  const now = new Date().toISOString();
  const knownId = await findUserIdByIdentity(identity.issuer, identity.subject);
  let user = knownId ? await getUser(knownId) : undefined;
  if (!user) {
    if (!identity.email) {
      throw new PermissionError('The identity provider did not share an email address.', {
        suggestion: 'Allow the "email" scope for this application at the identity provider.',
      });
    }
    if (!identity.emailVerified) {
      throw new PermissionError('Your email address is not verified at the identity provider.', {
        suggestion: 'Verify your email address with the identity provider, then sign in again.',
      });
    }
    const candidate = await findOrCreateUser(identity.email, identity.name);
    const linkedId = await linkIdentity(identity.issuer, identity.subject, candidate.userId, now);
    user = linkedId === candidate.userId ? candidate : await getUser(linkedId);
    if (!user) throw new Error('The identity is linked to a user that does not exist.');
  }
  return { user, memberships: await listMembershipsOfUser(user.userId) };
}
