/**
 * @product-passport/sdk: a typed client of the Product Passport API (docs/sdk.md). ESM, no
 * Node-only import: it runs in Node 20+ and in browsers.
 */
export { PassportClient, type PassportClientOptions } from './client.ts';
export { PassportError } from './errors.ts';
export { List, nextLink, type CursorPage, type LinkPage } from './pagination.ts';
export type { RetryInfo, RetryOptions } from './retry.ts';
export type { CreateOptions, RequestOptions } from './request.ts';
export type { Resources } from './resources/index.ts';
export type { CreateProductBody, ProductListQuery, UpdateProductBody } from './resources/products.ts';
export type { PublishPassportBody } from './resources/passports.ts';
export { csvFile, type ExportRow } from './resources/exports.ts';
export { isFinished, rowsDone, IMPORT_MEDIA_TYPES, type ImportFile, type ImportFormat } from './resources/imports.ts';
export type { TailOptions } from './resources/events.ts';
export type { CorrectTermBody, LabelLanguage, LabellingSettingsBody, LegalTermKey, SignOffBody } from './resources/labelling.ts';
export type { CreateRegistrationsBody, RegistryFileFormat, RegistryResultFile, RegistrySettingsBody } from './resources/registry.ts';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.ts';
export {
  CREDENTIAL_VERIFICATION_BUDGETS,
  CredentialVerificationError,
  didWebUrl,
  verifyPassportCredential,
  type PassportCredential,
  type PassportCredentialSubject,
  type VerifiedPassportCredential,
  type VerifyCredentialOptions,
} from './credentials.ts';
export type * from './types.ts';
