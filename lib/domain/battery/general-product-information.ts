import * as z from 'zod';
import { BATTERY_CATEGORIES, BATTERY_STATUSES } from './categories.ts';
import { choice, dateTime, email, measure, text, url } from './fields.ts';
import { COMMERCIAL_WARRANTY_PERIOD_PATTERN, MAX_WARRANTY_PERIOD_LENGTH } from './warranty.ts';

export { COMMERCIAL_WARRANTY_PERIOD_PATTERN, MAX_WARRANTY_PERIOD_LENGTH, warrantyYearsAndMonths } from './warranty.ts';

/**
 * The GeneralProductInformation aspect of the Battery Pass data model 1.2 (docs/battery.md#general-product-information):
 * property names, types and required members as the model has them, `warrentyPeriod` misspelt as
 * it is, with the tightenings of docs/battery.md#tightenings.
 */

/** The data model's ProductPassportIdentifierTrait, kept as it is: lower-case letters and digits only, no hyphens. */
export const BATTERY_PASSPORT_IDENTIFIER_PATTERN = '^urn:[a-z0-9]+:[a-z0-9]+$';

/**
 * The data model's WarrentyPeriod: XML Schema's gMonth (`--MM`, an optional offset), unit month. The
 * model's pattern is unanchored; anchored here. A gMonth names a month of the year, so it cannot
 * state a warranty longer than 12 months: a defect of the model, kept for exchange (docs/battery.md#defects-of-the-data-model).
 */
export const WARRANTY_PERIOD_PATTERN = '^--(?:0[1-9]|1[0-2])(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?$';


/** A month of a year, `YYYY-MM`: the date of manufacture as Annex VI Part A(4) asks for it (month and year). */
export const MANUFACTURING_MONTH_PATTERN = '^[0-9]{4}-(?:0[1-9]|1[0-2])$';
const MONTH = new RegExp(MANUFACTURING_MONTH_PATTERN, 'u');
const isDateTime = (value: string): boolean => z.iso.datetime({ offset: true }).safeParse(value).success;
const MANUFACTURING_DATE_MESSAGE = 'manufacturingDate must be a month and year (2027-03) or a date and time with its offset (2027-03-04T08:15:00Z).';

/**
 * The manufacturing date: a date and time with its offset, as the data model types it, or only
 * the month and year that Annex VI Part A(4) asks for (`2027-03`), stored as the first of that
 * month at 00:00 UTC so that the served document still holds the model's date-time
 * (docs/battery.md#tightenings); the page shows a manufacturing date as month and year.
 */
const manufacturingDate = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'manufacturingDate is required.' : 'manufacturingDate must be a string.') })
    .max(40, { error: MANUFACTURING_DATE_MESSAGE })
    .refine((value) => MONTH.test(value) || isDateTime(value), { error: MANUFACTURING_DATE_MESSAGE })
    .overwrite((value) => (MONTH.test(value) ? `${value}-01T00:00:00Z` : value))
    .meta({ anyOf: [{ format: 'date-time' }, { pattern: MANUFACTURING_MONTH_PATTERN }] })
    .describe('When the battery was made (Annex VI Part A(4): month and year): a date and time with its offset, or a month such as 2027-03, stored as 2027-03-01T00:00:00Z');

export const postalAddressSchema = z
  .strictObject(
    {
      addressCountry: text('addressCountry', 100),
      postalCode: text('postalCode', 20),
      streetAddress: text('streetAddress', 200),
    },
    { error: 'A postal address is an object with addressCountry, postalCode and streetAddress.' },
  )
  .meta({ id: 'BatteryPostalAddress', description: 'A postal address. addressCountry is free text as the data model has it (e.g. "Germany"), not a code' });

export const contactInformationSchema = z
  .strictObject(
    {
      contactName: text('contactName', 200),
      postalAddress: postalAddressSchema,
      identifier: text('identifier', 200).describe('An identifier of the organization (e.g. an operator or facility identifier); the data model notes that the regulation does not demand it'),
      emailAddress: email('emailAddress').optional(),
      webAddress: url('webAddress').optional(),
    },
    { error: 'Contact information is an object with contactName, postalAddress and identifier.' },
  )
  .meta({ id: 'BatteryContactInformation', description: 'Name, postal address, identifier and optionally e-mail and web address of an organization' });

export const generalProductInformationCompleteSchema = z.strictObject(
  {
    productIdentifier: text('productIdentifier', 200).describe(
      "The battery's unique identifier (Art. 77(3), ISO/IEC 15459 or equivalent), to which the QR code links (DIN DKE SPEC 99100 6.1.2.2)",
    ),
    batteryPassportIdentifier: z
      .string({ error: (issue) => (issue.input === undefined ? 'batteryPassportIdentifier is required.' : 'batteryPassportIdentifier must be a string.') })
      .max(200, { error: 'batteryPassportIdentifier must be at most 200 characters.' })
      .regex(new RegExp(BATTERY_PASSPORT_IDENTIFIER_PATTERN, 'u'), {
        error: 'batteryPassportIdentifier must be a URN of the form urn:<letters and digits>:<letters and digits>, such as urn:cellmaker:evp2027000123.',
      })
      .describe('The passport\'s identifier, a URN of lower-case letters and digits (the data model\'s pattern)'),
    batteryCategory: choice('batteryCategory', BATTERY_CATEGORIES).describe('lmt, ev, industrial (above 2 kWh, not stationary) or stationary (energy storage above 2 kWh)'),
    manufacturerInformation: contactInformationSchema.describe('The manufacturer (Annex VI Part A(1))'),
    manufacturingDate: manufacturingDate(),
    batteryStatus: choice('batteryStatus', BATTERY_STATUSES).describe('Lifecycle status (Annex XIII point 4(c)); changes over the battery\'s life'),
    batteryMass: measure('batteryMass', { min: 0, max: 100_000, unit: 'kg', description: 'Mass of the whole battery in kg (Annex VI Part A(5))' }),
    manufacturingPlace: postalAddressSchema.describe('The manufacturing plant (Annex VI Part A(3))'),
    operatorInformation: contactInformationSchema.describe('The economic operator responsible for the passport (Art. 77(3))'),
    puttingIntoService: dateTime('puttingIntoService').describe('When the battery was put into service (Annex VII Part B(1))'),
    warrentyPeriod: z
      .string({ error: (issue) => (issue.input === undefined ? 'warrentyPeriod is required.' : 'warrentyPeriod must be a string.') })
      .max(20, { error: 'warrentyPeriod must be at most 20 characters.' })
      .regex(new RegExp(WARRANTY_PERIOD_PATTERN, 'u'), { error: 'warrentyPeriod must be a month as the data model types it, --01 to --12.' })
      .describe('Commercial warranty period (Annex XIII point 1(m)), spelt as the data model spells it; typed by the model as an XML Schema gMonth (--MM), which names a month of the year, not a duration: state the period in commercialWarrantyPeriod'),
    commercialWarrantyPeriod: z
      .string({ error: (issue) => (issue.input === undefined ? 'commercialWarrantyPeriod is required.' : 'commercialWarrantyPeriod must be a string.') })
      .max(MAX_WARRANTY_PERIOD_LENGTH, { error: `commercialWarrantyPeriod must be at most ${MAX_WARRANTY_PERIOD_LENGTH} characters.` })
      .regex(new RegExp(COMMERCIAL_WARRANTY_PERIOD_PATTERN, 'u'), {
        error: 'commercialWarrantyPeriod must be an ISO 8601 duration of years and months, such as P8Y or P8Y6M (1 to 99 years, 1 to 11 months; 18 months is P1Y6M).',
      })
      .optional()
      .describe(
        'Extension of the data model (docs/battery.md#extension-members): the period of the commercial warranty for the calendar life (Annex XIII point 1(m)) as an ISO 8601 duration of years and months, e.g. P8Y',
      ),
  },
  { error: 'generalProductInformation must be an object.' },
);

/** As a passport version or draft holds it: every element optional (completeness says which are missing). */
export const generalProductInformationSchema = generalProductInformationCompleteSchema
  .partial()
  .meta({ id: 'BatteryGeneralProductInformation', description: 'General product information (Battery Pass data model 1.2, GeneralProductInformation)' });

export type GeneralProductInformation = z.infer<typeof generalProductInformationSchema>;
