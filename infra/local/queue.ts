import { startFauxqs } from 'fauxqs';

export const SCAN_QUEUE = 'scan-events';
export const SCAN_DLQ = 'scan-events-dlq';
export const MAX_RECEIVE_COUNT = 5;

export interface LocalQueues {
  endpoint: string;
  scanQueueUrl: string;
  scanDlqUrl: string;
  /** Bodies of every message sent to the scan queue so far (newest last, up to 10,000). */
  sentScanEvents(): unknown[];
  stop(): Promise<void>;
}

/**
 * Starts fauxqs (an SQS emulator, in this process) with the scan queue and its DLQ, wired by a
 * redrive policy as the CDK stack wires them.
 */
export async function startQueues(region: string): Promise<LocalQueues> {
  const server = await startFauxqs({
    port: 0,
    logger: false,
    host: 'localhost',
    defaultRegion: region,
    messageSpies: { bufferSize: 10_000 },
  });
  const dlq = server.createQueue(SCAN_DLQ, { region });
  const queue = server.createQueue(SCAN_QUEUE, {
    region,
    attributes: {
      VisibilityTimeout: '30',
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: String(MAX_RECEIVE_COUNT) }),
    },
  });
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    scanQueueUrl: queue.queueUrl,
    scanDlqUrl: dlq.queueUrl,
    sentScanEvents: () =>
      server.spy
        .getAllMessages()
        .filter((m) => m.service === 'sqs' && m.status === 'published' && m.queueName === SCAN_QUEUE)
        .map((m) => (m.service === 'sqs' ? (JSON.parse(m.body) as unknown) : undefined)),
    stop: () => server.stop(),
  };
}
