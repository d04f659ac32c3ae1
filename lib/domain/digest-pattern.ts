/** A version digest: `sha256:` and 64 lowercase hex digits (docs/lifecycle.md#digest-chain). */
export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
