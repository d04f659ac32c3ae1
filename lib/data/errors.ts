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

/** Retry `operation` while it loses to concurrent transactions, with jittered backoff. */
export async function retryOnConflict<T>(operation: () => Promise<T>, attempts = 8): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= attempts || !isTransactionConflict(error)) throw error;
      const delay = Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
