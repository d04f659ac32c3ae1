import { createHash, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../domain/tenant.ts';

/** `sk_live_` or `sk_test_` followed by 32 base-62 characters (about 190 bits). */
export const API_KEY_PATTERN = /^sk_(live|test)_[0-9A-Za-z]{32}$/;

export const keyPrefix = (environment: Environment): string => `sk_${environment}_`;

/** Keys are stored and looked up only as their SHA-256 (hex). */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
