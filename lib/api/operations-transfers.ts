import * as z from 'zod';
import { createTransferSchema, transferListQuerySchema, transferListSchema, transferSchema } from '../domain/transfer.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of product transfers between organizations, a change of economic operator (docs/transfers.md). */
const API_KEY_ERRORS = [401, 403, 429] as const;

export function transferOperations(): Record<string, OperationDoc> {
  return {
    'POST /v1/transfers': {
      summary: 'Offer a product to another organization (a change of economic operator)',
      description:
        "The owning organization offers one of its products (productId) to another organization on the platform (toOrgId), which becomes the economic operator responsible for its passport once it accepts (Regulation (EU) 2023/1542 Art. 77(4); ESPR Art. 11; docs/transfers.md). The offer is the sender's agreement; nothing changes in either organization until the receiver accepts. Writes transfer.offered in both organizations' logs. 422 names the field: the sender itself or an unknown organization as toOrgId; another organization's or an unknown product is 404; a product already in an open transfer, in a battery handover that a move would break (offered, or a waste battery its recipient answers for), or transferred 20 times before is 409. Counts against the pair limit of the two organizations (429).",
      tag: 'Products',
      body: createTransferSchema,
      responses: { 201: { description: 'The offered transfer', schema: transferSchema } },
      errors: [400, ...API_KEY_ERRORS, 404, 409, 413, 422],
    },
    'GET /v1/transfers': {
      summary: 'List transfers',
      description: 'The transfers the organization offered (direction=outgoing) and those offered to it (incoming), or both when direction is left out, oldest first.',
      tag: 'Products',
      query: transferListQuerySchema,
      responses: { 200: { description: 'A page of transfers', schema: transferListSchema } },
      errors: [400, ...API_KEY_ERRORS, 422],
    },
    'GET /v1/transfers/{transferId}': {
      summary: 'Get a transfer',
      description: "A transfer the organization sent or received, with the move's progress while it is accepted; any other is 404.",
      tag: 'Products',
      responses: { 200: { description: 'The transfer', schema: transferSchema } },
      errors: [...API_KEY_ERRORS, 404],
    },
    'POST /v1/transfers/{transferId}/accept': {
      summary: 'Accept a transfer: the product moves to your organization',
      description:
        "The receiving organization accepts; the product moves to it with its batches, items, passport versions (their digests and previous links unchanged: the next version it publishes chains onto the last) and registrations in the EU registry (each with the receiver's operator identifier, back to pending_checks, its identifier unchanged: the registry's entry is updated, not duplicated). The sender's API answers 404 for the product from the acceptance on; its printed QR codes keep resolving, to the receiver's passport (docs/transfers.md#the-printed-qr-codes). 200 with the completed transfer; 202 (Retry-After) with the accepted one when the move takes longer than the call, or when it stopped at once at a battery identifier the receiver's own battery holds (progress.blocked names both): accept again to go on from where it stopped, as after any failure half-way. Writes transfer.accepted, and transfer.completed when the move finishes, in both organizations' logs. 403 for the sender; 409 for a transfer declined or cancelled, a receiver that has a product with the GTIN (naming gtin), a product with registrations while the receiver's registration is off (naming enabled), a running import of the product's items, or an accepted transfer whose move is still stopped by such an identifier. Counts against the pair limit (429).",
      tag: 'Products',
      responses: {
        200: { description: 'The completed transfer: the product is yours', schema: transferSchema },
        202: {
          description: 'The accepted transfer, its move under way: accept again (Retry-After) to go on',
          schema: transferSchema,
          headers: { 'Retry-After': { description: 'Seconds before accepting again goes on with the move: 1', schema: z.string(), required: true } },
        },
      },
      errors: [...API_KEY_ERRORS, 404, 409],
    },
    'POST /v1/transfers/{transferId}/decline': {
      summary: 'Decline a transfer',
      description: 'The receiving organization refuses the offer; nothing of either organization changes. Declining again answers the declined transfer. Writes transfer.declined in both logs. 403 for the sender; 409 for a transfer accepted or cancelled. Counts against the pair limit (429).',
      tag: 'Products',
      responses: { 200: { description: 'The declined transfer', schema: transferSchema } },
      errors: [...API_KEY_ERRORS, 404, 409],
    },
    'POST /v1/transfers/{transferId}/cancel': {
      summary: 'Cancel a transfer',
      description: 'The sending organization withdraws an offer not yet accepted; nothing changes. Cancelling again answers the cancelled transfer. Writes transfer.cancelled in both logs. 403 for the receiver; 409 for a transfer accepted or declined. Counts against the pair limit (429).',
      tag: 'Products',
      responses: { 200: { description: 'The cancelled transfer', schema: transferSchema } },
      errors: [...API_KEY_ERRORS, 404, 409],
    },
  };
}

export const TRANSFER_PATH_PARAMETERS = {
  transferId: { description: 'A transfer id (tr_…)', schema: z.string() },
};
