/**
 * DynamoDB calls made by this process, by command (`GetItemCommand`, `UpdateItemCommand`, …),
 * whichever client made them (the SDK's, lib/data/client.ts, or the scan path's, lib/data/scan-reads.ts).
 * The benchmarks report calls per request from these.
 */
const callsByCommand = new Map<string, number>();
let calls = 0;

export function countDynamoCall(command: string): void {
  calls++;
  callsByCommand.set(command, (callsByCommand.get(command) ?? 0) + 1);
}

/** DynamoDB calls made by this process so far. */
export const dynamoCallCount = (): number => calls;

/** The same, by command. */
export const dynamoCallCounts = (): Record<string, number> => Object.fromEntries(callsByCommand);
