import { LANGUAGES } from '../../lib/domain/labelling/languages.ts';
import { platformDigestOf } from '../../lib/domain/labelling/sign-off.ts';

/**
 * lib/domain/labelling/platform-digests.json, made from the data (texts/*.json, vocabulary.json):
 * each language's sign-off digest without corrections, which publishing compares with a sign-off
 * without bundling the vocabulary (docs/labelling.md#sign-off). test/unit/labelling-sign-off.test.ts
 * compares the file with the data. Run `npx tsx test/support/labelling-platform-digests.ts --write`
 * after changing a text, a vocabulary name or an evidence.
 */
export const platformDigestsJson = (): string => `${JSON.stringify(Object.fromEntries(LANGUAGES.map((lang) => [lang, platformDigestOf(lang)])), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === '--write') {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(new URL('../../lib/domain/labelling/platform-digests.json', import.meta.url), platformDigestsJson());
}
