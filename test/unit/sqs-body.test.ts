import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import fc from 'fast-check';
import { startFauxqs } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchesOf, MAX_BATCH_BYTES, sendableJson, sendInBatches } from '../../lib/data/sqs.ts';

/**
 * What goes on a queue (docs/webhooks-outbound.md#what-a-message-may-hold): every body
 * lib/data/sqs.ts sends is JSON whose characters SQS accepts (#x9 | #xA | #xD | #x20–#xD7FF |
 * #xE000–#xFFFD | #x10000–#x10FFFF, the SendMessage API reference) and the local emulator accepts
 * (the same without #x10000–#x10FFFF), and that parses back to the very value that was sent, whatever
 * text a stored name holds: a noncharacter from before the text rule, a lone surrogate, an emoji.
 */
const SEED = 20_261_204;

/** SQS's documented set, as code points. */
const SQS_BODY = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
/** The local emulator's set (fauxqs checks UTF-16 code units: nothing beyond U+FFFF, docs/configuration.md#the-local-sqs-emulator). */
const EMULATOR_BODY = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD]*$/;

/** Text as stored data may hold it: any code point, and the code units SQS refuses, lone surrogates among them. */
const hostileUnit = fc.oneof(
  fc.constantFrom('\uFFFE', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\u{1FFFE}', '\u{10FFFF}', '🍷', '\u0000', '\u0008', '\u000B', '\u001F', '\u007F', '\uFDD0', '"', '\\'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const hostileText = fc.string({ unit: hostileUnit, maxLength: 24 });
const hostileValue = fc.dictionary(hostileText, fc.oneof(hostileText, fc.array(hostileText, { maxLength: 3 }), fc.integer()), { maxKeys: 4, noNullPrototype: true });

describe('sendableJson', () => {
  it('makes every JSON text a body SQS and the emulator accept, which parses back to the same value', () => {
    fc.assert(
      fc.property(hostileValue, (value) => {
        // Act
        const body = sendableJson(JSON.stringify(value));
        // Assess
        expect(body).toMatch(SQS_BODY);
        expect(body).toMatch(EMULATOR_BODY);
        expect(JSON.parse(body)).toStrictEqual(value);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('spells a noncharacter and an emoji as JSON escapes, and leaves a body without them as it was', () => {
    // Prepare
    const poisoned = JSON.stringify({ name: 'Riesling\uFFFE\uFFFF 🍷' });
    const plain = JSON.stringify({ name: 'Grüner Veltliner – Ried Kellerberg ℮ 75 cl', lines: 'a\tb\nc' });
    // Act
    const body = sendableJson(poisoned);
    // Assess
    expect(body).toBe('{"name":"Riesling\\ufffe\\uffff \\ud83c\\udf77"}');
    expect(JSON.parse(body)).toStrictEqual({ name: 'Riesling\uFFFE\uFFFF 🍷' });
    expect(sendableJson(plain)).toBe(plain);
  });
});

describe('batchesOf', () => {
  it('puts at most ten messages and 256 KiB of bodies in a call, in order, a larger body alone', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 120_000 }), { maxLength: 40 }), (sizes) => {
        // Prepare
        const messages = sizes.map((size, i) => ({ body: `${i}`.padEnd(size, 'x') }));
        // Act
        const batches = batchesOf(messages);
        // Assess
        expect(batches.flat()).toStrictEqual(messages);
        for (const batch of batches) {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(10);
          const bytes = batch.reduce((sum, m) => sum + Buffer.byteLength(m.body), 0);
          if (batch.length > 1) expect(bytes).toBeLessThanOrEqual(MAX_BATCH_BYTES);
        }
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

describe('sendInBatches against the local emulator (fauxqs on loopback)', () => {
  let server: Awaited<ReturnType<typeof startFauxqs>>;
  let queueUrl = '';
  let client: SQSClient;

  beforeAll(async () => {
    server = await startFauxqs({ port: 0, logger: false, host: '127.0.0.1', defaultRegion: 'eu-central-1' });
    queueUrl = server.createQueue('sqs-body-test', { region: 'eu-central-1' }).queueUrl;
    // lib/config.ts reads these on its first use, which is the first send below.
    Object.assign(process.env, { AWS_REGION: 'eu-central-1', SQS_ENDPOINT: server.address });
    client = new SQSClient({ region: 'eu-central-1', endpoint: server.address, useQueueUrlAsEndpoint: false, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  });
  afterAll(async () => {
    client?.destroy();
    await server?.stop();
  });

  it('queues events whose names hold U+FFFE, U+FFFF, a lone surrogate and an emoji, and the receiver parses the names back unchanged', async () => {
    // Prepare: names as stored before the text rule, or as the rule allows them (the emoji)
    const names = ['Riesling\uFFFE', 'Brand\uFFFF', 'SKU \uD800 lone', 'Rosé 🍷', 'Plain'];
    const bodies = names.map((name, i) => JSON.stringify({ id: `evt_${i}`, data: { object: { name } } }));
    // Act
    const calls = await sendInBatches(queueUrl, bodies.map((body) => ({ body })), 'test events');
    const received: string[] = [];
    while (received.length < names.length) {
      const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      received.push(...Messages.map((m) => m.Body ?? ''));
    }
    // Assess: one call, nothing refused (sendInBatches throws after three refusals), each name as it was
    expect(calls).toBe(1);
    const parsed = received.map((body) => JSON.parse(body) as { id: string; data: { object: { name: string } } }).sort((a, b) => a.id.localeCompare(b.id));
    expect(parsed.map((event) => event.data.object.name)).toStrictEqual(names);
  });
});
