import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The archive's budgets (docs/import-export.md#leaving-the-archive), counted before anything is
 * written: one line over MAX_ARCHIVE_LINES is 422 and no upload starts. DynamoDB's COUNT queries
 * and S3 are mocked (aws-sdk-client-mock): the budget is arithmetic on counts, and 5,001 stored
 * versions would take the integration tier minutes to write.
 */
process.env.TABLE_NAME = 'archive-budget-test';
process.env.EXPORTS_BUCKET = 'exports-test';
const { ARCHIVE_PREFIXES } = await import('../../lib/data/archive.ts');
const { exportArchive, MAX_ARCHIVE_LINES } = await import('../../lib/services/archive-export.ts');

const ddb = mockClient(DynamoDBDocumentClient);
const s3 = mockClient(S3Client);
const tenant = { orgId: 'org_0123456789abcdef', environment: 'live' as const };

/** Answers each COUNT query with the count of its prefix. */
function storedCounts(counts: Partial<Record<keyof typeof ARCHIVE_PREFIXES, number>>) {
  ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues?: Record<string, string> }) => {
    const prefix = input.ExpressionAttributeValues?.[':prefix'];
    const name = (Object.entries(ARCHIVE_PREFIXES) as [keyof typeof ARCHIVE_PREFIXES, string][]).find(([, p]) => p === prefix)?.[0];
    return { Count: name ? (counts[name] ?? 0) : 0, Items: [] };
  });
}

beforeEach(() => {
  ddb.reset();
  s3.reset();
});
afterAll(() => {
  ddb.restore();
  s3.restore();
});

describe('the archive line budget', () => {
  it('refuses one line over the budget with 422 before anything is uploaded', async () => {
    // Prepare: products, passport versions and item versions one over MAX_ARCHIVE_LINES, every version signed
    const passports = 1_000;
    storedCounts({ product: 500, passport: passports, item: 1_000, itemVersion: MAX_ARCHIVE_LINES + 1 - 2_500, credential: passports });
    // Act
    const refused = await exportArchive(tenant).then(() => undefined, (error: unknown) => error);
    // Assess
    expect(refused).toMatchObject({ status: 422, type: 'validation_error' });
    expect(String((refused as Error).message)).toContain(`${(MAX_ARCHIVE_LINES + 1).toLocaleString('en')} lines`);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(s3.calls()).toHaveLength(0);
  });
});
