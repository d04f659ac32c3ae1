import * as z from 'zod';
import { precheck, PRECHECK_CODES, type PrecheckContext, type PrecheckReason } from './precheck.ts';
import type { RegistryEntry } from './entry.ts';

/**
 * The registry's pre-checks at publish time (issue 39 point 2; docs/registry.md#at-publish-time): what
 * the outbox or the next upload file would hold the new registration back for, answered with the
 * publication as warnings, so that the person who publishes sees it then and not days later. The
 * checks that only the passage of time settles are left out: the upward links (they go first, in
 * their own time), the backup copy (written from the table's stream after the publication) and the
 * passport's completeness on the day (publishing a battery passport already refuses what it lacks).
 * No I/O here.
 */

/** Reasons the publication cannot know yet. */
const LATER: ReadonlySet<string> = new Set(['upward_link_missing', 'backup_not_checked', 'backup_missing', 'backup_unreachable', 'backup_digest_differs', 'passport_incomplete']);

export function publishTimeReasons(entry: RegistryEntry, context: Pick<PrecheckContext, 'verifiedHosts' | 'category' | 'links'>): PrecheckReason[] {
  const links = [context.links?.model, context.links?.batch].filter((link): link is string => link !== undefined);
  const result = precheck(entry, { ...context, available: new Set(links), backup: undefined, missing: [] });
  return [...result.errors, ...result.warnings].filter((reason) => !LATER.has(reason.code));
}

export const publicationRegistrySchema = z
  .object({
    registrationId: z.string().describe('The registration the publication made or found (GET /v1/registry/registrations/{registrationId})'),
    warnings: z
      .array(
        z.object({
          code: z.enum(PRECHECK_CODES),
          field: z.string().describe("The registry entry's field it names"),
          message: z.string(),
        }),
      )
      .describe('What the pre-checks would hold the registration back for, or warn of, as they stand at publishing; empty when nothing is in the way. Links and the backup copy are checked when it is sent.'),
  })
  .describe('Only when registration in the EU registry is enabled for the environment (docs/registry.md#at-publish-time)')
  .meta({ id: 'PublicationRegistryCheck' });
export type PublicationRegistryCheck = z.infer<typeof publicationRegistrySchema>;
