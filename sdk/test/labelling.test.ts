import { beforeAll, describe, expect, it } from 'vitest';
import { PassportError, type PassportClient } from '../src/index.ts';
import { newOrg, type TestOrg } from '../../test/support/api.ts';
import { sdkClient } from './support.ts';

/**
 * client.labelling against the local stack (docs/sdk.md, docs/labelling.md#sign-off): a language
 * signed off with the digest read, re-opened by a correction that it names, and the setting that
 * offers only the languages signed off.
 */
let org: TestOrg;
let client: PassportClient;

beforeAll(async () => {
  org = await newOrg('SDK Labelling');
  client = sdkClient(org.live);
});

describe('client.labelling', () => {
  it('signOff with the digest signOffOf read; correctTerm re-opens it, naming the term; a stale digest is a 409 naming digest', async () => {
    // Prepare
    const read = await client.labelling.signOffOf('nl');
    // Act
    const signed = await client.labelling.signOff({ lang: 'nl', digest: read.digest });
    await client.labelling.correctTerm('nl', 'contains', { text: 'Allergenen: {list}' });
    const nl = (await client.labelling.signOffs()).data.find((entry) => entry.lang === 'nl');
    const stale = await client.labelling.signOff({ lang: 'nl', digest: read.digest }).catch((error: unknown) => error);
    // Assess
    expect(read.terms.length).toBeGreaterThan(0);
    expect(signed).toMatchObject({ lang: 'nl', status: 'signed', signOff: { digest: read.digest, signedBy: { type: 'api_key' } } });
    expect(nl?.status).toBe('reopened');
    expect(nl?.changedTerms.map((change) => change.key)).toEqual(['text:contains']);
    expect(stale).toBeInstanceOf(PassportError);
    expect(stale).toMatchObject({ status: 409, param: 'digest' });
  });

  it('updateSettings and getSettings: signed-off, with the languages whose sign-off holds', async () => {
    // Prepare
    await client.labelling.signOff({ lang: 'sv' });
    // Act
    const saved = await client.labelling.updateSettings({ labelLanguages: 'signed-off' });
    const read = await client.labelling.getSettings();
    // Assess
    expect(saved.labelLanguages).toBe('signed-off');
    expect(read).toMatchObject({ labelLanguages: 'signed-off', signedLanguages: ['sv'] });
  });
});
