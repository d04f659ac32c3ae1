/**
 * A passport credential verifier (docs/sdk.md#examples, docs/credentials.md).
 *
 *   npx tsx sdk/examples/verify-credential.ts https://id.passport.example/org_…/live/p/04006381333931/2/credential.jwt --issuer did:web:id.passport.example:orgs:org_…
 *   npx tsx sdk/examples/verify-credential.ts credential.jwt --issuer did:web:brand.example
 *
 * Resolves the issuer's did:web, checks the ES256 signature and the revocation status list, checks
 * the issuer is the organization given with `--issuer` (every organization's DID is on the same
 * resolver host, so another organization's valid signature is not enough), and prints what the
 * credential says. Exit code 0 when it verifies and is not revoked, 2 when it is revoked, 1 when
 * it does not verify (or no `--issuer` is given). `--allow-loopback-http` reads a local stack's DID
 * documents over http (never another host's).
 */
import { readFile } from 'node:fs/promises';
import { CredentialVerificationError, verifyPassportCredential } from '@product-passport/sdk';

const args = process.argv.slice(2);
const issuerAt = args.indexOf('--issuer');
const expectedIssuer = issuerAt >= 0 ? args[issuerAt + 1] : undefined;
const source = args.find((arg, i) => !arg.startsWith('--') && (issuerAt < 0 || i !== issuerAt + 1));
if (!source) throw new Error('Give a credential URL or file');
if (!expectedIssuer?.startsWith('did:web:')) {
  console.error('not verified: give the issuer you expect with --issuer did:web:… (every organization signs on the same resolver host)');
  process.exit(1);
}
const jwt = /^https?:\/\//.test(source) ? await (await fetch(source)).text() : await readFile(source, 'utf8');

try {
  const { credential, issuer, revoked } = await verifyPassportCredential(jwt, { expectedIssuer, allowLoopbackHttp: args.includes('--allow-loopback-http') });
  const subject = credential.credentialSubject;
  console.log(`verified: ${subject.product.name} (GTIN ${subject.gtin}), version ${subject.version} published ${subject.publishedAt}`);
  console.log(`issuer:   ${issuer}`);
  console.log(`digest:   ${subject.digest} (previous ${subject.previousDigest ?? 'none'})`);
  console.log(revoked ? 'status:   REVOKED (the product was withdrawn)' : 'status:   not revoked');
  process.exitCode = revoked ? 2 : 0;
} catch (error) {
  if (!(error instanceof CredentialVerificationError)) throw error;
  console.error(`not verified: ${error.message}`);
  process.exitCode = 1;
}
