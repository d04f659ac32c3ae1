import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';

let client: SQSClient | undefined;

/** The one SQS client of a process, on the configured endpoint locally (fauxqs) and SQS's own in AWS. */
export function sqs(): SQSClient {
  if (client) return client;
  const { region, sqsEndpoint } = config();
  client = new SQSClient({
    region,
    ...(sqsEndpoint
      ? {
          endpoint: sqsEndpoint,
          // Local queue URLs name a host that need not resolve; send to the configured endpoint.
          useQueueUrlAsEndpoint: false,
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  return client;
}
