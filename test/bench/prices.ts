/**
 * The AWS list prices the cost model (test/bench/cost.ts) uses: one line per price and region, each
 * with where it was read and when. On-demand, first volume tier, free tier not deducted, USD.
 *
 * `checked` is the day the source was read in this repository's work (through stored copies of the
 * pages; a page's own publication date is not known). `confirmed: false` marks a price that no
 * source read that day showed for that region: it is carried over from the previous price table
 * (infra/prices.json, 2025-06-01, which issue 20 reports as checked against the published prices)
 * and must be checked in the AWS Pricing Calculator before it is quoted (docs/benchmarks.md#cost).
 */

export type Region = 'eu-central-1' | 'us-east-1';
export const REGIONS: readonly Region[] = ['eu-central-1', 'us-east-1'];

export interface Price {
  value: number;
  unit: string;
  source: string;
  checked: string;
  confirmed: boolean;
  note?: string;
}

export interface RegionPrices {
  region: Region;
  /** Where the viewers of this region's deployment are (CloudFront bills by edge location). */
  edge: string;
  cloudfrontHttpsRequestsPerMillion: Price;
  cloudfrontTransferPerGb: Price;
  cloudfrontFunctionsPerMillion: Price;
  lambdaRequestsPerMillion: Price;
  lambdaArmGbSecond: Price;
  functionUrlRequestsPerMillion: Price;
  httpApiRequestsPerMillion: Price;
  dynamodbWriteUnitsPerMillion: Price;
  dynamodbReadUnitsPerMillion: Price;
  sqsRequestsPerMillion: Price;
  logsIngestionPerGb: Price;
  dataTransferOutPerGb: Price;
  secretsManagerSecretPerMonth: Price;
  alarmMetricPerMonth: Price;
  /** S3 Standard: PUT (and COPY, POST, LIST) requests, and storage (the backup copy, docs/backup.md#what-it-costs). */
  s3PutRequestsPerThousand: Price;
  s3StandardPerGbMonth: Price;
}

const CHECKED = '2026-11-23';
const PREVIOUS = 'infra/prices.json of 2025-06-01 (AWS pricing pages, transcribed by hand)';
const CLOUDFRONT = 'https://aws.amazon.com/cloudfront/pricing/';
const LAMBDA = 'https://aws.amazon.com/lambda/pricing/';
const API_GATEWAY = 'https://aws.amazon.com/api-gateway/pricing/';
const DYNAMODB = 'https://aws.amazon.com/dynamodb/pricing/on-demand/';
const SQS = 'https://aws.amazon.com/sqs/pricing/';
const CLOUDWATCH = 'https://aws.amazon.com/cloudwatch/pricing/';
const S3 = 'https://aws.amazon.com/s3/pricing/';
const S3_REQUESTS = `${S3}; https://c3x.dev/blog/s3-request-fees-explained (S3 Standard: PUT, COPY, POST, LIST $0.005 per 1,000 requests)`;
const S3_STORAGE = `${S3}; https://cloudburn.io/blog/amazon-s3-pricing (S3 Standard $0.023 per GB-month, US East, March 2026)`;

const price = (value: number, unit: string, source: string, confirmed: boolean, note?: string): Price => ({
  value,
  unit,
  source,
  checked: CHECKED,
  confirmed,
  ...(note ? { note } : {}),
});

/** The S3 prices were read later than the rest, for the backup copy (issue 30). */
const s3Price = (...args: Parameters<typeof price>): Price => ({ ...price(...args), checked: '2026-11-26' });

/** Shared by both regions: the same published figure everywhere. */
const common = {
  cloudfrontTransferPerGb: price(0.085, '$/GB', `${CLOUDFRONT} (Regional data transfer out to internet, first 10 TB: US and Europe alike)`, true),
  cloudfrontFunctionsPerMillion: price(0.1, '$/million invocations', 'https://cur.vantage.sh/aws/amazoncloudfront/ (Executions-CloudFrontFunctions: $0.10 per 1 million invocations)', true, 'read on a billing-code reference, not on the AWS page itself'),
  lambdaRequestsPerMillion: price(0.2, '$/million', `${LAMBDA}; https://docs.aws.amazon.com/whitepapers/latest/how-aws-pricing-works/lambda.html ($0.20 per 1 million requests)`, true),
  functionUrlRequestsPerMillion: price(0, '$/million', `${LAMBDA} (function URLs carry no charge beyond the invocation)`, false, 'not shown by a source read that day'),
  dataTransferOutPerGb: price(0.09, '$/GB', `${PREVIOUS}; ${API_GATEWAY} (HTTP API data transfer out at the EC2 rate)`, false),
  secretsManagerSecretPerMonth: price(0.4, '$/secret-month', PREVIOUS, false),
  alarmMetricPerMonth: price(0.1, '$/metric-month', PREVIOUS, false),
} as const;

export const PRICES: Record<Region, RegionPrices> = {
  'eu-central-1': {
    region: 'eu-central-1',
    edge: 'Europe',
    ...common,
    cloudfrontHttpsRequestsPerMillion: price(1.2, '$/million', `${CLOUDFRONT} ($0.0120 per 10,000 HTTPS requests, Europe)`, false, 'the request table was cut off in the copy read; carried over from the previous table'),
    lambdaArmGbSecond: price(0.0000133334, '$/GB-s', `${PREVIOUS}; ${LAMBDA}`, false, 'the Arm price read that day was for us-east-1'),
    httpApiRequestsPerMillion: price(1.2, '$/million', `${PREVIOUS}; ${API_GATEWAY}`, false),
    dynamodbWriteUnitsPerMillion: price(0.7625, '$/million WRU', `${PREVIOUS}; ${DYNAMODB}`, false, 'after the November 2024 on-demand price cut'),
    dynamodbReadUnitsPerMillion: price(0.1525, '$/million RRU', `${PREVIOUS}; ${DYNAMODB}`, false),
    sqsRequestsPerMillion: price(0.4, '$/million', `${PREVIOUS}; ${SQS}`, false),
    logsIngestionPerGb: price(0.63, '$/GB', `${PREVIOUS}; ${CLOUDWATCH}`, false, 'Lambda logs are vended logs, tiered since May 2025; the first tier is this price'),
    s3PutRequestsPerThousand: s3Price(0.005, '$/1,000 requests', S3_REQUESTS, false, 'the US East figure: no source read that day showed Frankfurt\'s'),
    s3StandardPerGbMonth: s3Price(0.023, '$/GB-month', S3_STORAGE, false, 'the US East figure: no source read that day showed Frankfurt\'s'),
  },
  'us-east-1': {
    region: 'us-east-1',
    edge: 'United States',
    ...common,
    cloudfrontHttpsRequestsPerMillion: price(1.0, '$/million', `${CLOUDFRONT} ($0.0100 per 10,000 HTTPS requests, United States)`, false, 'the request table was cut off in the copy read'),
    lambdaArmGbSecond: price(0.0000133334, '$/GB-s', `${LAMBDA}; https://cloudchipr.com/blog/aws-lambda-pricing (Arm: $0.0000133334 per GB-s, first 7.5 billion GB-s, US East)`, true),
    httpApiRequestsPerMillion: price(1.0, '$/million', 'https://docs.aws.amazon.com/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html (HTTP API, us-east-1, first 300 million: $1.00 per million)', true),
    dynamodbWriteUnitsPerMillion: price(0.625, '$/million WRU', `${DYNAMODB}; https://airbyte.com/data-engineering-resources/dynamodb-pricing ($0.625 per million WRU, US East, after November 2024)`, true),
    dynamodbReadUnitsPerMillion: price(0.125, '$/million RRU', `${DYNAMODB}; https://airbyte.com/data-engineering-resources/dynamodb-pricing ($0.125 per million RRU, US East)`, true),
    sqsRequestsPerMillion: price(0.4, '$/million', `${SQS}`, false, 'standard queue; not shown by a source read that day'),
    logsIngestionPerGb: price(0.5, '$/GB', `${CLOUDWATCH}; https://www.duckbillgroup.com/?p=9080 (Lambda logs: first tier $0.50 per GB, us-east-1, tiered from May 2025)`, true),
    s3PutRequestsPerThousand: s3Price(0.005, '$/1,000 requests', S3_REQUESTS, true, 'read on third-party pages, not on the AWS page itself'),
    s3StandardPerGbMonth: s3Price(0.023, '$/GB-month', S3_STORAGE, true, 'first 50 TB; read on a third-party page, not on the AWS page itself'),
  },
};

/** Every price line, for the table `npm run cost` prints. */
export function priceLines(prices: RegionPrices): { item: string; price: Price }[] {
  return (Object.entries(prices) as [string, unknown][])
    .filter((entry): entry is [string, Price] => typeof entry[1] === 'object' && entry[1] !== null && 'value' in entry[1])
    .map(([item, p]) => ({ item, price: p }));
}
