import * as z from 'zod';
import { createHandoverSchema, acceptHandoverSchema, handoverListQuerySchema, handoverListSchema, handoverSchema } from '../domain/handover.ts';
import { itemSchema } from '../domain/units.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of battery handovers and of a battery's life (docs/battery.md#second-life), beside the other operations of the route table. */
const API_KEY_ERRORS = [401, 403, 429] as const;

export function handoverOperations(): Record<string, OperationDoc> {
  return {
    'POST /v1/handovers': {
      summary: 'Offer a battery to another organization for its second life or as waste',
      description:
        'The sender offers one of its battery items (productId, serial) to another organization on the platform (toOrgId), naming the operation it will do: repurposing, remanufacturing, preparation_for_reuse or preparation_for_repurposing (Regulation (EU) 2023/1542 Art. 77(7) first subparagraph), or waste: the recipient (the producer, its producer responsibility organisation or a waste management operator) takes over the waste battery\'s passport (Art. 77(7) second subparagraph). Nothing of either organization changes until the recipient accepts. Writes handover.offered in both organizations\' logs. 422 names the field: a product that is no battery, the sender itself or an unknown organization as toOrgId; an unknown item is 404; a battery whose life does not allow the operation (a waste or recycled battery) is 409 naming both states (docs/battery.md#a-batterys-life). Counts against the pair limit of the two organizations (429).',
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
        "A second-life operation: the recipient names its own battery item (productId, serial; registered beforehand) that is the battery after the operation. In one transaction: the recipient's item records one more predecessor (lineage.predecessor, a list: a pack may be made of several originals, one handover each), the original records its successor (lineage.successors), both take the battery status the operation gives (Repurposed, Remanufactured or Reused; preparation_for_repurposing gives Repurposed), each as the next version of its digest chain, and the handover is accepted. A waste handover: an empty body; the original becomes Waste and names the recipient responsible for its passport (lineage.responsible, Art. 77(7) second subparagraph): from then on its producer's PUT and PATCH are 409, and only the recipient declares it recycled. Writes handover.accepted and item.updated in both organizations' logs (a waste handover: item.updated in the sender's). Only the recipient accepts (403 for the sender); an accepted or cancelled handover is 409, as is a move the battery's life does not allow (naming both states, e.g. Waste → Repurposed). Counts against the pair limit of the two organizations (429).",
      tag: 'Products',
      body: acceptHandoverSchema,
      responses: { 200: { description: 'The accepted handover, with the recipient\'s item after it', schema: handoverSchema.extend({ item: itemSchema }) } },
      errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
    },
    'POST /v1/handovers/{handoverId}/recycle': {
      summary: 'Declare a waste battery recycled',
      description:
        "The organization a waste handover made responsible for the battery's passport (its recipient, once accepted) declares the battery recycled: the battery's last version records it (lineage.recycled) and its passport ceases to exist (Regulation (EU) 2023/1542 Art. 77(8)): its Digital Link answers 410 with a page that says the battery was recycled, not that its producer withdrew it. Writes item.recycled in both organizations' logs. 403 for the sender or an organization no longer responsible; 409 naming both states when the battery is not Waste (e.g. Recycled → Recycled); 422 for a handover that is not a waste handover. Counts against the pair limit (429).",
      tag: 'Products',
      responses: { 200: { description: 'The waste handover with recycledAt, and the battery\'s last version', schema: handoverSchema.extend({ item: itemSchema }) } },
      errors: [...API_KEY_ERRORS, 404, 409, 422],
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
