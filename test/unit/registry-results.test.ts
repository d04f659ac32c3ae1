import { describe, expect, it } from 'vitest';
import { MAX_RESULT_FILE_BYTES, MAX_RESULT_RECORD_CHARS, MAX_RESULT_ROWS, parseResultFile, type ParsedResultFile } from '../../lib/domain/registry/results.ts';

/** The registry's result file (docs/registry.md#the-result-file) and its budget (docs/security.md#parser-budgets). */

const MODEL = 'https://id.brand.example/01/04006381333931';
const problemOf = (parsed: ParsedResultFile) => (parsed.ok ? undefined : parsed.problem);

describe('parseResultFile', () => {
  it('reads registered, rejected and pending rows, columns in any order, a byte-order mark and CRLF lines, rows numbered as a spreadsheet does', () => {
    // Prepare
    const csv = [
      '\uFEFFupi,status,registryId,registryUri,errors,correlationId',
      `${MODEL},REGISTERED,reg-1,https://registry.example/dpp/reg-1,,upload-7`,
      '',
      `${MODEL}/21/S1,rejected,,,"The commodity code is not in TARIC | The backup link does not answer",upload-7`,
      `${MODEL}/21/S2,pending,reg-3,,,upload-7`,
      '',
    ].join('\r\n');

    // Act
    const parsed = parseResultFile(Buffer.from(csv, 'utf8'));

    // Assess
    expect(parsed).toEqual({
      ok: true,
      results: [
        { row: 2, correlationId: 'upload-7', upi: MODEL, outcome: 'registered', registryId: 'reg-1', registryUri: 'https://registry.example/dpp/reg-1', reasons: [] },
        { row: 4, correlationId: 'upload-7', upi: `${MODEL}/21/S1`, outcome: 'rejected', registryId: null, registryUri: null, reasons: ['The commodity code is not in TARIC', 'The backup link does not answer'] },
        { row: 5, correlationId: 'upload-7', upi: `${MODEL}/21/S2`, outcome: 'pending', registryId: 'reg-3', registryUri: null, reasons: [] },
      ],
    });
  });

  it('takes a file of only the two required columns', () => {
    expect(parseResultFile(`upi,status\n${MODEL},pending\n`)).toMatchObject({ ok: true, results: [{ upi: MODEL, outcome: 'pending', correlationId: null }] });
  });

  it(`attack: a file one byte over ${MAX_RESULT_FILE_BYTES} bytes is refused before it is read (413)`, () => {
    // Prepare
    const header = 'upi,status\n';
    const body = Buffer.alloc(MAX_RESULT_FILE_BYTES + 1, 'x');
    body.write(header);

    // Act
    const problem = problemOf(parseResultFile(body));

    // Assess
    expect(problem).toMatchObject({ status: 413, message: expect.stringContaining(`at most ${MAX_RESULT_FILE_BYTES} bytes`) });
  });

  it(`attack: ${MAX_RESULT_ROWS + 1} rows are refused (413); ${MAX_RESULT_ROWS} are read`, () => {
    // Prepare
    const rows = (n: number) => `upi,status,registryId\n${Array.from({ length: n }, (_, i) => `${MODEL}/21/S${i},registered,r${i}`).join('\n')}\n`;
    const over = rows(MAX_RESULT_ROWS + 1);
    expect(Buffer.byteLength(over)).toBeLessThan(MAX_RESULT_FILE_BYTES);

    // Act
    const refused = parseResultFile(over);
    const read = parseResultFile(rows(MAX_RESULT_ROWS));

    // Assess
    expect(problemOf(refused)).toMatchObject({ status: 413, message: expect.stringContaining(`at most ${MAX_RESULT_ROWS} rows`) });
    expect(read.ok && read.results.length).toBe(MAX_RESULT_ROWS);
  });

  it(`attack: one row over ${MAX_RESULT_RECORD_CHARS} characters is refused (413)`, () => {
    const csv = `upi,status,errors\n${MODEL},rejected,"${'x'.repeat(MAX_RESULT_RECORD_CHARS)}"\n`;

    expect(problemOf(parseResultFile(csv))).toMatchObject({ status: 413 });
  });

  it.each<[string, string | Buffer, object]>([
    ['bytes that are not UTF-8', Buffer.from([0x75, 0x70, 0x69, 0xff, 0xfe, 0x0a]), { status: 400, message: expect.stringMatching(/UTF-8/) }],
    ['an unclosed quote', `upi,status\n"${MODEL},registered\n`, { status: 400, message: expect.stringMatching(/cannot be read as CSV/) }],
    ['a row with a cell too many', `upi,status\n${MODEL},registered,x\n`, { status: 400 }],
    ['an unknown column', 'upi,status,registryURL\n', { status: 422, param: 'registryURL' }],
    ['no status column', `upi,registryId\n${MODEL},r1\n`, { status: 422, param: 'status' }],
    ['a column twice', 'upi,status,upi\n', { status: 422, param: 'upi' }],
    ['no row', 'upi,status\n', { status: 422, message: expect.stringMatching(/no result/) }],
    ['an empty upi', 'upi,status\n,registered\n', { status: 422, param: 'upi', message: expect.stringMatching(/^Row 2/) }],
    ['an unknown status', `upi,status\n${MODEL},accepted\n`, { status: 422, param: 'status' }],
    ['a registered entry without its id', `upi,status\n${MODEL},registered\n`, { status: 422, param: 'registryId' }],
    ['a rejected entry without its reasons', `upi,status,errors\n${MODEL},rejected,\n`, { status: 422, param: 'errors' }],
    ['a registry URI that is no URL', `upi,status,registryUri\n${MODEL},registered,reg 1\n`, { status: 422, param: 'registryUri' }],
    ['an identifier twice', `upi,status,registryId\n${MODEL},registered,r1\n${MODEL},registered,r2\n`, { status: 422, param: 'upi', message: expect.stringMatching(/Row 3.*row 2/) }],
    ['a cell over its length', `upi,status,registryId\n${MODEL},registered,${'r'.repeat(201)}\n`, { status: 422, param: 'registryId' }],
    // The text rule's noncharacters (docs/api.md#text-and-json-rules): a reason is stored and goes out in events.
    ['a reason with U+FFFE', `upi,status,errors\n${MODEL},rejected,Bad\uFFFE code\n`, { status: 422, param: 'errors', message: 'Row 2: errors must not contain Unicode noncharacters (U+FFFE at character 4).' }],
    ['a registry id with U+FFFF', `upi,status,registryId\n${MODEL},registered,reg\uFFFF\n`, { status: 422, param: 'registryId' }],
    ['a correlation id with U+1FFFE', `upi,status,registryId,correlationId\n${MODEL},registered,r1,up\u{1FFFE}\n`, { status: 422, param: 'correlationId', message: expect.stringMatching(/noncharacters \(U\+1FFFE/) }],
  ])('refuses %s, the whole file, naming what is wrong', (_name, input, problem) => {
    // Act
    const parsed = parseResultFile(input);

    // Assess
    expect(parsed.ok).toBe(false);
    expect(problemOf(parsed)).toMatchObject(problem);
  });
});
