import * as z from 'zod';
import { LANGUAGES } from '../domain/labelling/languages.ts';
import { createSignOffSchema, labellingSettingsSchema, languageSignOffSchema, putLabellingSettingsSchema, signOffStatusSchema } from '../domain/labelling/sign-off.ts';
import type { OperationDoc } from './operations.ts';

/** The operations of a language's sign-off and the languages the e-labels offer (docs/labelling.md#sign-off). */
const API_KEY_ERRORS = [401, 403, 429] as const;

export function signOffOperations(): Record<string, OperationDoc> {
  return {
    'GET /v1/labelling/sign-offs': {
      summary: "List the languages' sign-offs",
      description:
        "Each of the 24 languages, in their order, with its sign-off in this environment and its status against the terms as they are now: signed (the digest of the language's legal texts and vocabulary names, with the organization's corrections, still matches), reopened (a term changed since, the platform's wording or evidence or the organization's correction: changedTerms names each, as signed and as now) or none. The status is worked out on each read; nothing is written.",
      tag: 'Labelling',
      responses: { 200: { description: 'The 24 languages', schema: z.object({ data: z.array(signOffStatusSchema) }) } },
      errors: [400, ...API_KEY_ERRORS],
    },
    'GET /v1/labelling/sign-offs/{lang}': {
      summary: "A language's terms and its sign-off",
      description:
        "What a sign-off of the language signs: every legal text and vocabulary name as the organization's pages use it (its correction where it has one), with its rule and evidence (level, source, citation), the digest of them all, and the language's sign-off with its status. An unknown language is 404 naming lang.",
      tag: 'Labelling',
      responses: { 200: { description: "The language's terms and sign-off", schema: languageSignOffSchema } },
      errors: [...API_KEY_ERRORS, 404],
    },
    'POST /v1/labelling/sign-offs': {
      summary: 'Sign off a language',
      description: `The organization's compliance officer signs off the wording of a language (lang: one of ${LANGUAGES.join(', ')}; 422 naming lang otherwise): who (a dashboard user, or an API key with labelling:write: its id and name), when, the digest of the language's terms as they are now and each term's own digest and wording. 201 with the sign-off, which replaces the language's earlier one, and labelling.sign_off.created in the event log; 200 with the current sign-off, writing nothing, when it still holds (the terms are as signed). With digest (as GET /v1/labelling/sign-offs/{lang} answered it), terms that changed since are a 409 conflict naming digest and nothing is signed. Any later change of a term re-opens the sign-off. Under labelLanguages signed-off, versions published afterwards offer the language. Takes an Idempotency-Key.`,
      tag: 'Labelling',
      body: createSignOffSchema,
      responses: {
        201: { description: 'Signed off', schema: signOffStatusSchema, headers: { Location: { description: "The language's terms and sign-off", required: true, schema: z.string() } } },
        200: { description: 'The sign-off that still holds: nothing was written', schema: signOffStatusSchema },
      },
      errors: [400, ...API_KEY_ERRORS, 409, 413, 422],
    },
    'GET /v1/labelling/settings': {
      summary: 'Get the labelling settings',
      description:
        'labelLanguages (all, the default, or signed-off) in this environment, when it was saved, and the languages whose sign-off holds now: those a version published now would offer under signed-off.',
      tag: 'Labelling',
      responses: { 200: { description: 'The settings', schema: labellingSettingsSchema } },
      errors: [400, ...API_KEY_ERRORS],
    },
    'PUT /v1/labelling/settings': {
      summary: 'Save the labelling settings',
      description:
        "labelLanguages: all offers the e-label in the 24 languages; signed-off offers only the languages whose sign-off holds when a version is published (fixed on the version's pages, as its corrected terms are: a sign-off or a change reaches the pages at the next publication), the product's label language alone when none does. A page asked for in a language not offered redirects (301) to the page in the language it falls back to: the product's label language, English, the first offered. Battery pages are not concerned. Writes labelling.settings.updated.",
      tag: 'Labelling',
      body: putLabellingSettingsSchema,
      responses: { 200: { description: 'The saved settings', schema: labellingSettingsSchema } },
      errors: [400, ...API_KEY_ERRORS, 413, 422],
    },
  };
}
