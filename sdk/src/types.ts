import type { components, paths } from './generated/openapi.d.ts';

/**
 * Names for the generated types (src/generated/openapi.d.ts): a request's query, body and success
 * answer by path and method, and the API's schemas by name. Nothing here is written twice: each
 * type is read off the OpenAPI document (docs/sdk.md#types).
 */
export type { components, paths };

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
export type Path = keyof paths;

/** The operation `method` on `path`. */
export type Operation<P extends Path, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;

/** The query parameters of an operation (`never` without any). */
export type Query<P extends Path, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The request body of an operation, whatever its media type (JSON, a merge patch, a file). */
export type Body<P extends Path, M extends Method> = Operation<P, M> extends { requestBody: { content: infer C } } ? C[keyof C] : never;

type SuccessStatus = 200 | 201 | 202;
/** The JSON an operation answers with on success. */
export type Result<P extends Path, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? { [S in keyof R & SuccessStatus]: R[S] extends { content: { 'application/json': infer J } } ? J : never }[keyof R & SuccessStatus]
    : never;

type Schemas = components['schemas'];
export type Product = Schemas['Product'];
export type CreatedProduct = Schemas['CreatedProduct'];
export type ProductList = Schemas['ProductList'];
export type Passport = Schemas['Passport'];
export type PassportVersion = Schemas['PassportVersion'];
export type CreatedPassport = Schemas['CreatedPassport'];
export type PassportCompleteness = Schemas['PassportCompleteness'];
export type Draft = Schemas['Draft'];
export type Batch = Schemas['Batch'];
export type Item = Schemas['Item'];
export type Supplier = Schemas['Supplier'];
export type ImportJob = Schemas['ImportJob'];
export type ImportJobSummary = Schemas['ImportJobSummary'];
export type QueuedImport = Schemas['QueuedImport'];
export type Analytics = Schemas['Analytics'];
export type Event = Schemas['Event'];
export type EventType = Event['type'];
export type EventSubscription = Schemas['EventSubscription'];
export type CreatedEventSubscription = Schemas['CreatedEventSubscription'];
export type EventDelivery = Schemas['EventDelivery'];
export type AccessGrant = Schemas['AccessGrant'];
export type RegistrySettings = Schemas['RegistrySettings'];
export type Registration = Schemas['Registration'];
export type RegistrationsCreated = Schemas['RegistrationsCreated'];
export type Dpp = Schemas['Dpp'];
export type DppElement = Schemas['DppElement'];
export type LabellingTerm = Schemas['LabellingTerm'];
export type LabellingSignOffStatus = Schemas['LabellingSignOffStatus'];
export type LabellingLanguageSignOff = Schemas['LabellingLanguageSignOff'];
export type LabellingSettings = Schemas['LabellingSettings'];
/** The API's error object, `{error: {type, code, message, param?, …}}`'s inside. */
export type ApiErrorBody = Schemas['Error']['error'];
export type ErrorType = ApiErrorBody['type'];
