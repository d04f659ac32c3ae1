/** Helpers for reading DynamoDB's errors without `any`. */
export interface CancellationReason {
  Code?: string;
}

export function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

export function cancellationReasons(error: unknown): CancellationReason[] {
  if (errorName(error) !== 'TransactionCanceledException') return [];
  const reasons = (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons;
  return Array.isArray(reasons) ? reasons : [];
}

export const isConditionFailure = (error: unknown): boolean => errorName(error) === 'ConditionalCheckFailedException';

/** A transaction lost to a concurrent one touching the same item: safe to retry. */
export const isTransactionConflict = (error: unknown): boolean =>
  cancellationReasons(error).some((r) => r.Code === 'TransactionConflict') ||
  errorName(error) === 'TransactionConflictException';

/** A jittered, growing pause after attempt `attempt`: `baseMs` × 2^attempt, at most `maxMs`, times 0.5 to 1.5, so that racing writers spread out. */
export const jitteredPause = (attempt: number, baseMs: number, maxMs = Number.POSITIVE_INFINITY): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.min(maxMs, baseMs * 2 ** attempt) * (0.5 + Math.random())));

/** Retry `operation` while it loses to concurrent transactions, with jittered backoff. */
export async function retryOnConflict<T>(operation: () => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      await jitteredPause(attempt, 5, 200);
    }
  }
}
