import { config } from '../config.ts';

/**
 * How long a request may spend on one call to an AWS service (DynamoDB, SQS, KMS, Secrets
 * Manager) before it gives up and answers 503 (docs/api.md#when-a-dependency-is-down). A call
 * makes at most MAX_ATTEMPTS attempts; an attempt that has no answer after ATTEMPT_TIMEOUT_MS
 * (CONNECT_TIMEOUT_MS of it to connect) is cut off; throttling, 5xx answers, time-outs and dropped
 * connections are retried after a jittered back-off (the SDK's standard mode: at most 1 s, then
 * 2 s, after throttling; 50 ms, then 100 ms, otherwise). So one failing call gives up within
 * about 6.2 s (three cut-off attempts) and a refused connection within a fraction of a second,
 * inside the API functions' 10 s Lambda timeout and far inside API Gateway's 29 s. The scan path
 * has a budget of its own, tighter (lib/data/aws-json.ts). Against DynamoDB Local attempts are cut
 * off later (5 s: lib/config.ts, AWS_ATTEMPT_TIMEOUT_MS): on a busy machine it pauses longer.
 */
export const MAX_ATTEMPTS = 3;
export const CONNECT_TIMEOUT_MS = 1000;
export const ATTEMPT_TIMEOUT_MS = 2000;

/** What one failing call may take at most with `attemptTimeoutMs`: every attempt cut off, and the longest back-off between them. */
export const callBudgetMs = (attemptTimeoutMs: number = ATTEMPT_TIMEOUT_MS): number => MAX_ATTEMPTS * attemptTimeoutMs + 3000;

/**
 * The options every SDK client of the runtime takes: the attempts and the cut-off per attempt.
 * `throwOnRequestTimeout`: without it, the SDK's HTTP handler only logs a warning when an
 * attempt outlasts its `requestTimeout`, and waits on.
 */
export const sdkClientBudget = () => {
  const timeout = config().awsAttemptTimeoutMs;
  return {
    maxAttempts: MAX_ATTEMPTS,
    // Against DynamoDB Local (a longer cut-off) connecting may take the whole attempt: a busy Java server accepts late.
    requestHandler: { connectionTimeout: timeout > ATTEMPT_TIMEOUT_MS ? timeout : Math.min(CONNECT_TIMEOUT_MS, timeout), requestTimeout: timeout, throwOnRequestTimeout: true },
  };
};

/** Seconds a client is told to wait (Retry-After) after a 503 for an unavailable dependency. */
export const RETRY_AFTER_SECONDS = 5;
