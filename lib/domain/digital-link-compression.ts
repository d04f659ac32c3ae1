/**
 * Decompression of a compressed GS1 Digital Link URI's last path segment (GS1 Digital Link,
 * compression; how the resolver uses it: docs/resolver.md#compressed-uris). Pure: no I/O.
 *
 * The segment is a base64url text (alphabet `A–Z a–z 0–9 - _`, 6 bits a character, zero bits
 * padding the last one) of a bit stream of elements, each starting with two hexadecimal nibbles:
 *
 * - two decimal digits: the start of an Application Identifier, whose length (2, 3 or 4 digits)
 *   the first two digits give; the remaining digits follow as nibbles, then the AI's value;
 * - a code of the optimisation table: a fixed sequence of AIs, their values one after another;
 * - `F` then 7 bits: a key that is no AI (its length, then 6-bit characters), then its value.
 *
 * A value is laid out by its AI's format: fixed-length digits as one binary number, variable-length
 * digits as their count then the number, characters as a 3-bit encoding (digits, lower- or
 * upper-case hexadecimal, base64url, 7-bit ASCII), their count when variable, then the characters.
 *
 * Budget: at most MAX_COMPRESSED_LENGTH characters (3,072 bits) are read; longer input is refused
 * before any work. Every step consumes at least one bit, the largest number read is 422 bits (127
 * digits), and the result holds at most one value per AI: time and memory are linear in the input.
 */

/** The longest compressed segment decoded: 512 characters (3,072 bits, 384 bytes). */
export const MAX_COMPRESSED_LENGTH = 512;

export interface DecompressedLink {
  /** The GS1 Application Identifiers and their values, in the order they were encoded. */
  elements: ReadonlyArray<readonly [ai: string, value: string]>;
  /** Keys that are no AI (`F` elements), with their values, in the order they were encoded. */
  extensions: ReadonlyArray<readonly [key: string, value: string]>;
}

export type Decompression = ({ ok: true } & DecompressedLink) | { ok: false; reason: string };

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const HEX = '0123456789ABCDEF';
export const COMPRESSED_SEGMENT = /^[A-Za-z0-9_-]+$/;

/** Digits, then characters a GS1 AI value may hold (GS1 character set 82). */
const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]*$/;
/** What AI 8010 (a component/part identifier) may hold: GS1 character set 39. */
const CSET39 = /^[#\-/0-9A-Z]*$/;
/** What a non-AI value may hold: printable ASCII. */
const PRINTABLE = /^[\x20-\x7e]*$/;

/** The AI's length in digits, by its first two digits (only these prefixes are AIs). */
const AI_LENGTH = new Map<string, number>();
const lengthOf = (prefixes: string, length: number) => prefixes.split(' ').forEach((p) => AI_LENGTH.set(p, length));
lengthOf('00 01 02 10 11 12 13 15 16 17 20 21 22 30 37 90 91 92 93 94 95 96 97 98 99', 2);
lengthOf('23 24 25 40 41 42 71', 3);
lengthOf('31 32 33 34 35 36 39 43 70 72 80 81 82', 4);

/** `a-b` (same length) expands to every AI from a to b. */
function expand(list: string): string[] {
  return list.split(' ').flatMap((item) => {
    const [from, to] = item.split('-');
    if (to === undefined) return [item];
    const out: string[] = [];
    for (let n = Number(from); n <= Number(to); n++) out.push(String(n).padStart(item.indexOf('-'), '0'));
    return out;
  });
}

/** The measure AIs 3nn0–3nn5 (six decimal positions) of each group nn. */
const measures = (groups: string) => expand(groups).flatMap((nn) => expand(`3${nn}0-3${nn}5`));

/**
 * One component of a value: `fixed` digits or characters, or up to `max` (`optional`: may be empty).
 * Components of an AI are read in order and concatenated.
 */
interface Component {
  kind: 'N' | 'X';
  fixed?: number;
  max?: number;
  optional?: boolean;
}

/**
 * Formats as the compression lays them out: `N6`, `N..8`, `X..20`, `X3`; `+` joins components, `?`
 * marks an optional last one. A fixed-length numeric part is one number (8006: N18, not N14+N4).
 * AI 235 is X..28, as the GS1 syntax dictionary has it (docs/resolver.md#compressed-uris).
 */
const FORMAT_TABLE: ReadonlyArray<readonly [ais: string[], format: string]> = [
  [expand('00 8006 8017 8018 8026'), 'N18'],
  [expand('01 02 8001'), 'N14'],
  [expand('10 21 22 243 254 420 710-714 4318 7020-7022 7240 8002 8012'), 'X..20'],
  [[...expand('11-13 15-17 4326 7006 8005 3950-3955'), ...measures('10-16 20-29 30-37 40-49 50-57 60-69')], 'N6'],
  [['20'], 'N2'],
  [expand('30 37'), 'N..8'],
  [['235'], 'X..28'],
  [expand('90 240 241 250 251 400 401 403 4308 4319 7002 7023 7230-7239 8004 8010 8013'), 'X..30'],
  [expand('91-99'), 'X..90'],
  [['242'], 'N..6'],
  [['253'], 'N13+X..17?'],
  [['255'], 'N13+N..12?'],
  [['402'], 'N17'],
  [expand('410-417 7001'), 'N13'],
  [['421'], 'N3+X..9'],
  [expand('422 424 426'), 'N3'],
  [expand('423 425'), 'N3+N..12?'],
  [expand('427 7008'), 'X..3'],
  [expand('3900-3909 3920-3929'), 'N..15'],
  [expand('3910-3919 3930-3939'), 'N3+N..15'],
  [expand('3940-3943 8111'), 'N4'],
  [expand('4300 4301 4310 4311 4320'), 'X..35'],
  [expand('4302-4306 4312-4316 8110 8112 8200'), 'X..70'],
  [expand('4307 4317'), 'X2'],
  [['4309'], 'N20'],
  [expand('4321-4323'), 'N1'],
  [expand('4324 4325 7003'), 'N10'],
  [['7004'], 'N..4'],
  [['7005'], 'X..12'],
  [['7007'], 'N6+N..6?'],
  [['7009'], 'X..10'],
  [['7010'], 'X..2'],
  [expand('7030-7039'), 'N3+X..27'],
  [['7040'], 'N1+X3'],
  [['8003'], 'N14+X..16?'],
  [['8007'], 'X..24'],
  [['8008'], 'N8+N..4?'],
  [['8009'], 'X..50'],
  [['8011'], 'N..12'],
  [['8019'], 'N..10'],
  [['8020'], 'X..25'],
];

function parseFormat(format: string): Component[] {
  return format.split('+').map((part) => {
    const match = /^([NX])(\.\.)?(\d+)(\?)?$/.exec(part);
    if (!match) throw new Error(`Bad format ${format}`);
    const size = Number(match[3]);
    return { kind: match[1] as 'N' | 'X', ...(match[2] ? { max: size } : { fixed: size }), ...(match[4] ? { optional: true } : {}) };
  });
}

const FORMATS = new Map<string, Component[]>(FORMAT_TABLE.flatMap(([ais, format]) => ais.map((ai) => [ai, parseFormat(format)] as const)));

/** The optimisation table: a two-hexadecimal-digit code stands for a sequence of AIs. */
const SEQUENCES = new Map<string, readonly string[]>([
  ['0A', ['01', '22']],
  ['0B', ['01', '10']],
  ['0C', ['01', '21']],
  ['0D', ['01', '17']],
  ['0E', ['01', '7003']],
  ['0F', ['01', '30']],
  ['1A', ['01', '10', '21', '17']],
  ['1B', ['01', '15']],
  ['1C', ['01', '11']],
  ['1D', ['01', '16']],
  ['1E', ['01', '91']],
  ['1F', ['01', '10', '15']],
  ['9A', ['8010', '8011']],
  ['9B', ['8017', '8019']],
  ['9C', ['8018', '8019']],
  ['9D', ['414', '254']],
]);
// A GTIN with a net weight in kg (2A–2F: 3100–3105) or in pounds (3A–3F: 3200–3205), with an amount
// payable (A0–A9: 3920–3929); a coupon (255) with an amount (C0–C9: 3900–3909) or a percentage off (CA–CD: 3940–3943).
for (let d = 0; d <= 5; d++) SEQUENCES.set(`2${HEX[10 + d]}`, ['01', `310${d}`]).set(`3${HEX[10 + d]}`, ['01', `320${d}`]);
for (let d = 0; d <= 9; d++) SEQUENCES.set(`A${d}`, ['01', `392${d}`]).set(`C${d}`, ['255', `390${d}`]);
for (let d = 0; d <= 3; d++) SEQUENCES.set(`C${HEX[10 + d]}`, ['255', `394${d}`]);

class Invalid extends Error {}

/** Reads the bit stream of the base64url characters, most significant bit first. */
class Bits {
  private position = 0;
  private readonly total: number;
  constructor(private readonly sextets: Uint8Array) {
    this.total = sextets.length * 6;
  }

  get remaining(): number {
    return this.total - this.position;
  }

  private bit(): number {
    const index = this.position++;
    return ((this.sextets[Math.floor(index / 6)] ?? 0) >> (5 - (index % 6))) & 1;
  }

  /** The next `count` bits (at most 31) as a number. */
  read(count: number): number {
    if (count > this.remaining) throw new Invalid('The data ends in the middle of an element.');
    let value = 0;
    for (let i = 0; i < count; i++) value = (value << 1) | this.bit();
    return value;
  }

  /** The next `count` bits as a big integer. */
  readBig(count: number): bigint {
    if (count > this.remaining) throw new Invalid('The data ends in the middle of an element.');
    let value = 0n;
    for (let i = 0; i < count; i++) value = (value << 1n) | BigInt(this.bit());
    return value;
  }
}

/** Bits of a count of at most `max`: the smallest number of bits that holds max itself. */
const lengthBits = (max: number): number => max.toString(2).length;
/** Bits of a number of `digits` decimal digits, as the compression counts them. */
const digitBits = (digits: number): number => Math.ceil(digits * Math.log2(10) + 0.01);

function readDigits(bits: Bits, digits: number): string {
  if (digits === 0) return '';
  const value = bits.readBig(digitBits(digits)).toString();
  if (value.length > digits) throw new Invalid(`A number is larger than its ${digits} digits.`);
  return value.padStart(digits, '0');
}

/** `count` characters in the 3-bit encoding that precedes them (read by the caller). */
function readCharacters(bits: Bits, encoding: number, count: number): string {
  switch (encoding) {
    case 0:
      return readDigits(bits, count);
    case 1:
    case 2: {
      let out = '';
      for (let i = 0; i < count; i++) out += HEX[bits.read(4)];
      return encoding === 1 ? out.toLowerCase() : out;
    }
    case 3: {
      let out = '';
      for (let i = 0; i < count; i++) out += BASE64URL[bits.read(6)];
      return out;
    }
    case 4: {
      let out = '';
      for (let i = 0; i < count; i++) out += String.fromCharCode(bits.read(7));
      return out;
    }
    default:
      throw new Invalid(`Character encoding ${encoding} does not exist.`);
  }
}

function readValue(bits: Bits, ai: string): string {
  const components = FORMATS.get(ai);
  if (!components) throw new Invalid(`AI ${ai} cannot be decompressed.`);
  let value = '';
  for (const component of components) {
    const encoding = component.kind === 'X' ? bits.read(3) : 0;
    const count = component.fixed ?? checkedCount(bits.read(lengthBits(component.max ?? 0)), component, ai);
    value += readCharacters(bits, encoding, count);
  }
  if (!(ai === '8010' ? CSET39 : CSET82).test(value)) throw new Invalid(`The value of AI ${ai} holds a character GS1 does not allow.`);
  return value;
}

/** The count of a variable-length component: 1 to its maximum, or 0 for an optional one left empty. */
function checkedCount(count: number, component: Component, ai: string): number {
  if (count > (component.max ?? 0) || (count === 0 && !component.optional)) {
    throw new Invalid(`A part of the value of AI ${ai} must have 1 to ${component.max ?? 0} characters; it has ${count}.`);
  }
  return count;
}

function readExtension(bits: Bits, h2: number): readonly [string, string] {
  // After the F flag: a 7-bit key length (the second nibble and 3 more bits), the key, then its value.
  const keyLength = (h2 << 3) | bits.read(3);
  if (keyLength === 0) throw new Invalid('A key that is no AI is empty.');
  let key = '';
  for (let i = 0; i < keyLength; i++) key += BASE64URL[bits.read(6)];
  const encoding = bits.read(3);
  const value = readCharacters(bits, encoding, bits.read(7));
  if (!PRINTABLE.test(value)) throw new Invalid(`The value of ${key} holds a character that is not printable.`);
  return [key, value];
}

/**
 * The AIs and other keys of a compressed Digital Link's last path segment, or why it is none:
 * too long, a character outside base64url, an unknown AI or code, a value off its AI's format, an
 * AI twice, data cut short, or padding that is not zero bits.
 */
export function decompressDigitalLink(segment: string): Decompression {
  if (segment.length > MAX_COMPRESSED_LENGTH) {
    return { ok: false, reason: `A compressed Digital Link has at most ${MAX_COMPRESSED_LENGTH} characters; this one has ${segment.length}.` };
  }
  if (!COMPRESSED_SEGMENT.test(segment)) return { ok: false, reason: 'A compressed Digital Link holds only the characters A–Z, a–z, 0–9, - and _.' };
  const sextets = Uint8Array.from(segment, (c) => BASE64URL.indexOf(c));
  const bits = new Bits(sextets);
  const elements: Array<readonly [string, string]> = [];
  const extensions: Array<readonly [string, string]> = [];
  const seen = new Set<string>();
  const keys = new Set<string>();
  const add = (ai: string) => {
    if (seen.has(ai)) throw new Invalid(`AI ${ai} appears twice.`);
    seen.add(ai);
    elements.push([ai, readValue(bits, ai)]);
  };
  try {
    // The last character is padded with fewer than 6 zero bits; every element takes at least 8.
    while (bits.remaining >= 6) {
      const h1 = bits.read(4);
      const h2 = bits.read(4);
      if (h1 <= 9 && h2 <= 9) {
        const prefix = `${h1}${h2}`;
        const length = AI_LENGTH.get(prefix);
        if (length === undefined) throw new Invalid(`No AI starts with ${prefix}.`);
        let ai = prefix;
        while (ai.length < length) {
          const digit = bits.read(4);
          if (digit > 9) throw new Invalid(`AI ${ai}… continues with a nibble that is no digit.`);
          ai += String(digit);
        }
        add(ai);
      } else if (SEQUENCES.has(`${HEX[h1]}${HEX[h2]}`)) {
        for (const ai of SEQUENCES.get(`${HEX[h1]}${HEX[h2]}`) ?? []) add(ai);
      } else if (h1 === 15) {
        const [key, value] = readExtension(bits, h2);
        if (keys.has(key)) throw new Invalid(`${key} appears twice.`);
        keys.add(key);
        extensions.push([key, value]);
      } else {
        throw new Invalid(`No AI or optimisation has the code ${HEX[h1]}${HEX[h2]}.`);
      }
    }
    if (bits.read(bits.remaining) !== 0) throw new Invalid('The padding after the last element is not zero bits.');
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, reason: error.message };
    throw error;
  }
  if (elements.length === 0) return { ok: false, reason: 'It holds no GS1 Application Identifier.' };
  return { ok: true, elements, extensions };
}
