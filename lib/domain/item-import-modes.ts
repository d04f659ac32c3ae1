/**
 * How an items import treats a serial the product already has (docs/imports.md#merge-or-replace):
 * `merge` (the default) changes what the row's columns name and keeps the rest, as a merge patch
 * (`PATCH …/items/{serial}`) does; `replace` makes the row the item's whole content, as
 * `PUT …/items/{serial}` does. No imports: the dashboard may read it.
 */
export const ITEM_IMPORT_MODES = ['merge', 'replace'] as const;
export type ItemImportMode = (typeof ITEM_IMPORT_MODES)[number];
