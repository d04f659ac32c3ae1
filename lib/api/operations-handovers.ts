import * as z from 'zod';
import { createHandoverSchema, acceptHandoverSchema, handoverListQuerySchema, handoverListSchema, handoverSchema } from '../domain/handover.ts';
import { itemSchema } from '../domain/units.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of battery handovers (docs/battery.md#second-life), beside the other operations of the route table. */
const API_KEY_ERRORS = [401, 403, 429] as const;

export function handoverOperations(): Record<string, OperationDoc> {
  return {
    'POST /v1/handovers': {
      summary: 'Offer a battery to another organization for its second life',
      description:
        'The sender offers one of its battery items (productId, serial) to another organization on the platform (toOrgId), naming the operation it will do: repurposing, remanufacturing or preparation_for_reuse (Regulation (EU) 2023/1542 Art. 77(6)). Nothing of either organization changes until the recipient accepts. Writes handover.offered in both organizations\' logs. 422 names the field: a product that is no battery, the sender itself or an unknown organization as toOrgId; an unknown item is 404.',
      tag: 'Products',
      body: createHandoverSchema,
      responses: { 201: { description: 'The offered handover', schema: handoverSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 413, 422],
    },
    'GET /v1/handovers': {
      summary: 'List handovers',
      description: 'as=sender (default): the handovers the organization offered, oldest first; as=recipient: those offered to it.',
      tag: 'Products',
      query: handoverListQuerySchema,
      responses: { 200: { description: 'A page of handovers', schema: handoverListSchema } },
      errors: [400, ...API_KEY_ERRORS, 422],
    },
    'GET /v1/handovers/{handoverId}': {
      summary: 'Get a handover',
      description: 'A handover the organization sent or received; any other is 404.',
      tag: 'Products',
      responses: { 200: { description: 'The handover', schema: handoverSchema } },
      errors: [...API_KEY_ERRORS, 404],
    },
    'POST /v1/handovers/{handoverId}/accept': {
      summary: 'Accept a handover',
      description:
        "The recipient names its own battery item (productId, serial; registered beforehand) that is the battery after the operation. In one transaction: the recipient's item records its predecessor (lineage.predecessor, the original's Digital Link), the original records its successor (lineage.successors), both take the battery status the operation gives (Repurposed, Remanufactured or Reused), each as the next version of its digest chain, and the handover is accepted. Writes handover.accepted and item.updated in both organizations' logs. Only the recipient accepts (403 for the sender); an accepted or cancelled handover is 409, as is an item that already names a predecessor.",
      tag: 'Products',
      body: acceptHandoverSchema,
      responses: { 200: { description: 'The accepted handover, with the recipient\'s item after it', schema: handoverSchema.extend({ item: itemSchema }) } },
      errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
    },
    'DELETE /v1/handovers/{handoverId}': {
      summary: 'Cancel a handover',
      description: 'The sender withdraws an offer not yet accepted (an accepted one is 409; cancelling again answers the cancelled handover). Writes handover.cancelled in both logs. Only the sender cancels (403 for the recipient).',
      tag: 'Products',
      responses: { 200: { description: 'The cancelled handover', schema: handoverSchema } },
      errors: [...API_KEY_ERRORS, 404, 409],
    },
  };
}

export const HANDOVER_PATH_PARAMETERS = {
  handoverId: { description: 'A handover id (ho_…)', schema: z.string() },
};
