import * as z from 'zod';
import { defineApiHandler, pathParam, publicOperation, type ApiRequest } from '../../lib/api/handler.ts';
import { originOf } from '../../lib/api/origin.ts';
import { listLabelTermsQuerySchema, putLabelTermSchema } from '../../lib/domain/labelling-term.ts';
import { clearTerm, getTerm, listTerms, setTerm } from '../../lib/services/labelling-terms.ts';
import { getLanguageSignOff, getSettings, listSignOffs, putSettings, signOff } from '../../lib/services/sign-offs.ts';
import { createSignOffSchema, putLabellingSettingsSchema } from '../../lib/domain/labelling/sign-off.ts';
import { calculateNutritionSchema } from '../../lib/domain/labelling/schemas.ts';
import { vocabularyList } from '../../lib/domain/labelling/vocabulary.ts';
import { alcoholGrams, completeEnergy, computableEnergy, energyMismatch, energyMismatchMessage } from '../../lib/domain/nutrition.ts';
import { json } from '../../lib/http/response.ts';
import { parseBody, parseQuery } from '../../lib/http/validation.ts';

/**
 * Labelling helpers (docs/labelling.md): `GET /v1/vocabulary/ingredients`, the ingredient
 * vocabulary a passport's ingredients may name by code (public: the same for everyone, cacheable
 * for a day), and `POST /v1/nutrition/calculate`, the energy calculator the dashboard's passport
 * form calls as the user types (any API key or a session).
 */

/** The vocabulary never changes within a deployment: one day in any cache. */
export const VOCABULARY_CACHE = 'public, max-age=86400';

let vocabularyBody: string | undefined;

async function getVocabulary() {
  vocabularyBody ??= JSON.stringify({ data: vocabularyList() });
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': VOCABULARY_CACHE, 'Access-Control-Allow-Origin': '*' },
    body: vocabularyBody,
  };
}

async function calculate(request: ApiRequest) {
  const input = parseBody(calculateNutritionSchema, request.body);
  const given = input.nutrition;
  const alcoholFromVolume = given.alcoholG === undefined && input.alcoholPercentVol !== undefined;
  const nutrition = alcoholFromVolume ? { ...given, alcoholG: Math.round(alcoholGrams(input.alcoholPercentVol as number) * 100) / 100 } : given;
  // The check publishing makes (a 422 there): here the calculator reports it, so a form can show it as the user types.
  const mismatch = energyMismatch(nutrition, input.productType);
  const computed = computableEnergy(nutrition, input.productType);
  const completed = completeEnergy(nutrition, input.productType);
  const declared = nutrition.energyCalculated !== true;
  const sourceOf = (field: 'energyKj' | 'energyKcal') =>
    declared && nutrition[field] !== undefined ? 'declared' : completed.energyCalculated === true ? 'calculated' : 'absent';
  return json(200, {
    nutrition: completed,
    sources: {
      energyKj: sourceOf('energyKj'),
      energyKcal: sourceOf('energyKcal'),
      alcoholG: alcoholFromVolume ? 'calculated' : nutrition.alcoholG === undefined ? 'absent' : 'declared',
    },
    computed: computed ? { energyKj: computed.kj, energyKcal: computed.kcal } : null,
    disagreement: mismatch
      ? { field: mismatch.field, declaredKj: mismatch.declaredKj, computedKj: mismatch.computedKj, message: energyMismatchMessage(mismatch).message }
      : null,
  });
}

// An organization's corrections of the legal terms (docs/labelling.md#correcting-a-term).
const termPath = (request: ApiRequest) => [pathParam(request, 'lang'), pathParam(request, 'termKey')] as const;

async function getTerms(request: ApiRequest) {
  const { lang, status } = parseQuery(listLabelTermsQuerySchema, request.event.queryStringParameters, ['lang', 'status']);
  return json(200, { data: await listTerms(request.principal.tenant, lang, status) });
}

async function getOneTerm(request: ApiRequest) {
  return json(200, await getTerm(request.principal.tenant, ...termPath(request)));
}

async function putTerm(request: ApiRequest) {
  const [lang, termKey] = termPath(request);
  const input = parseBody(putLabelTermSchema, request.body);
  return json(200, await setTerm(request.principal.tenant, lang, termKey, input, originOf(request)));
}

async function deleteTerm(request: ApiRequest) {
  return json(200, await clearTerm(request.principal.tenant, ...termPath(request), originOf(request)));
}

// A compliance officer's sign-off of a language, and the languages the e-labels offer (docs/labelling.md#sign-off).
async function getSignOffs(request: ApiRequest) {
  parseQuery(z.strictObject({}), request.event.queryStringParameters, []);
  return json(200, { data: await listSignOffs(request.principal.tenant) });
}

async function getOneSignOff(request: ApiRequest) {
  return json(200, await getLanguageSignOff(request.principal.tenant, pathParam(request, 'lang')));
}

/** 201 with the new sign-off; 200 with the current one when it still holds (nothing written). */
async function postSignOff(request: ApiRequest) {
  const input = parseBody(createSignOffSchema, request.body);
  const { created, signOff: view } = await signOff(request.principal.tenant, input, originOf(request));
  return created ? json(201, view, { Location: `/v1/labelling/sign-offs/${view.lang}` }) : json(200, view);
}

async function getLabellingSettings(request: ApiRequest) {
  parseQuery(z.strictObject({}), request.event.queryStringParameters, []);
  return json(200, await getSettings(request.principal.tenant));
}

async function putLabellingSettings(request: ApiRequest) {
  const input = parseBody(putLabellingSettingsSchema, request.body);
  return json(200, await putSettings(request.principal.tenant, input, originOf(request)));
}

export const handler = defineApiHandler('labelling', {
  'GET /v1/vocabulary/ingredients': publicOperation(getVocabulary),
  'POST /v1/nutrition/calculate': calculate,
  'GET /v1/labelling/terms': getTerms,
  'GET /v1/labelling/terms/{lang}/{termKey}': getOneTerm,
  'PUT /v1/labelling/terms/{lang}/{termKey}': putTerm,
  'DELETE /v1/labelling/terms/{lang}/{termKey}': deleteTerm,
  'GET /v1/labelling/sign-offs': getSignOffs,
  'GET /v1/labelling/sign-offs/{lang}': getOneSignOff,
  'POST /v1/labelling/sign-offs': postSignOff,
  'GET /v1/labelling/settings': getLabellingSettings,
  'PUT /v1/labelling/settings': putLabellingSettings,
});
