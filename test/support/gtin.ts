import { checkDigit } from '../../lib/domain/gtin.ts';

let counter = 0;

/** A fresh valid GTIN-13 for each call, unique within a test run. */
export function uniqueGtin13(): string {
  counter++;
  const body = `4${String(process.pid % 1000).padStart(3, '0')}${String(counter).padStart(8, '0')}`;
  return `${body}${checkDigit(body)}`;
}
