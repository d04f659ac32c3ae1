import { describe, expect, it } from 'vitest';
import { isSafeReturnTo } from '../../lib/domain/session.ts';

/** docs/security.md, finding 1: the post-login redirect may only land on this API or a dashboard origin. */
const OWN = 'https://api.example.com';
const DASHBOARDS = ['https://dashboard.example.com', 'http://localhost:5173'];

describe('returnTo after sign-in', () => {
  it('attack: open redirect through a tab, backslash, scheme-relative or foreign returnTo is refused', () => {
    // Prepare: what an attacker puts in ?returnTo= (after query decoding)
    const payloads = [
      '/\t/evil.example/x', // the reported bypass: browsers strip the tab and go to //evil.example/x
      '\t//evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      '/%09/evil.example/x', // the same, still percent-encoded (double-encoded in the query)
      '/%0a/evil.example',
      '/%5cevil.example',
      '/\\evil.example',
      '\\/\\/evil.example',
      '\\\\evil.example',
      '//evil.example',
      '//evil.example/x?y=1',
      '///evil.example',
      'https:evil.example',
      'http:evil.example',
      'https://evil.example/',
      'http://evil.example',
      'https://dashboard.example.com.evil.example/',
      'https://dashboard.example.com@evil.example/',
      'https://user:pw@dashboard.example.com/',
      'http://dashboard.example.com/', // an allowed host, but not its allowed scheme
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'ftp://dashboard.example.com/',
      '/\u0000/evil.example',
      '/\u007f/evil.example',
      '/\u0085/evil.example', // C1 next line
      '/\u200b/evil.example', // zero-width space
      '/\u202e/evil.example', // right-to-left override
      '/\u2028/evil.example', // line separator
      '/\u2029/evil.example', // paragraph separator
      '/\ufeff/evil.example', // byte order mark
      '',
    ];
    // Act
    const accepted = payloads.filter((payload) => isSafeReturnTo(payload, OWN, DASHBOARDS));
    // Assess
    expect(accepted).toEqual([]);
  });

  it('lets the browser go back to a path here or a URL on an allowed dashboard origin', () => {
    // Prepare
    const destinations = [
      '/v1/auth/session',
      '/dashboard/',
      '/dashboard/products?q=riesling&page=2#top',
      'dashboard/', // relative: resolves to this API
      '/dashboard/%E2%9C%93', // an encoded non-control character
      'https://api.example.com/dashboard/',
      'https://dashboard.example.com/keys?x=1',
      'https://dashboard.example.com',
      'http://localhost:5173/keys',
    ];
    // Act
    const refused = destinations.filter((destination) => !isSafeReturnTo(destination, OWN, DASHBOARDS));
    // Assess
    expect(refused).toEqual([]);
  });
});
