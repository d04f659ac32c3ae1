import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { handler as aggregate } from '../../functions/aggregator/handler.ts';
import { db } from '../../lib/data/client.ts';

/**
 * Fault injection on the scan aggregator, per invocation, in this process's DynamoDB client (the
 * fault-injection tests and the pipeline benchmark use it). An invocation runs in an
 * AsyncLocalStorage context whose `beforeSend` sees each request first: it may throw (a failed
 * request), wait (a slow one) or never resolve (a killed invocation: nothing more of it reaches
 * the table, as when Lambda stops a sandbox).
 */
export type Input = Record<string, unknown>;
export interface Invocation {
  beforeSend?: (input: Input) => Promise<void> | void;
}
const invocations = new AsyncLocalStorage<Invocation>();
let installed = false;

function installFaults(): void {
  if (installed) return;
  installed = true;
  db().middlewareStack.add(
    (next) => async (args) => {
      await invocations.getStore()?.beforeSend?.(args.input as Input);
      return next(args);
    },
    { step: 'initialize', name: 'faultInjection' },
  );
}

const context = { functionName: 'aggregator', awsRequestId: 'fault', getRemainingTimeInMillis: () => 30_000 } as Context;

/** Runs the aggregator on `records` under `invocation`'s faults. */
export function invoke(records: SQSRecord[], invocation: Invocation = {}): Promise<SQSBatchResponse> {
  installFaults();
  return invocations.run(invocation, () => aggregate({ Records: records }, context));
}

export const isRollupUpdate = (input: Input): boolean =>
  typeof input.UpdateExpression === 'string' && String((input.Key as Input | undefined)?.PK).startsWith('STATS#');
export const isLedgerPut = (input: Input): boolean => String((input.Item as Input | undefined)?.PK).startsWith('SCANLOG#');
/** The product id of a rollup update. */
export const productOf = (input: Input): string | undefined => String((input.Key as Input | undefined)?.PK).split('#')[3];

/** Kills the invocation at the first request `when` picks: that request and every later one never complete. */
export function killedAt(when: (input: Input) => boolean): { invocation: Invocation; dead: Promise<void> } {
  let dead = false;
  let died: () => void = () => {};
  const deadPromise = new Promise<void>((resolve) => (died = resolve));
  return {
    dead: deadPromise,
    invocation: {
      beforeSend: async (input) => {
        if (!dead && when(input)) {
          dead = true;
          died();
        }
        if (dead) await new Promise(() => {});
      },
    },
  };
}

/** A gate: `reached` resolves when the invocation is about to send the first request `at` picks; it waits there until `open()`. */
export function gatedAt(at: (input: Input) => boolean): { invocation: Invocation; reached: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  let reach: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let passed = false;
  return {
    reached,
    open: () => open(),
    invocation: {
      beforeSend: async (input) => {
        if (passed || !at(input)) return;
        passed = true;
        reach();
        await opened;
      },
    },
  };
}

/** The same message delivered again (same id and body, the next receive count). */
export const again = (r: SQSRecord): SQSRecord => ({
  ...r,
  receiptHandle: `${r.receiptHandle}+`,
  attributes: { ...r.attributes, ApproximateReceiveCount: String(Number(r.attributes.ApproximateReceiveCount) + 1) },
});
