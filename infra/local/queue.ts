import { spawn, type ChildProcess } from 'node:child_process';
import { Server, type ListenOptions } from 'node:net';
import { join } from 'node:path';
import { startFauxqs } from 'fauxqs';
import { StartupError } from './errors.ts';
import { freePort } from './ports.ts';

export const SCAN_QUEUE = 'scan-events';
export const SCAN_DLQ = 'scan-events-dlq';
export const IMPORT_QUEUE = 'import-chunks';
export const IMPORT_DLQ = 'import-chunks-dlq';
export const DELIVERY_QUEUE = 'event-deliveries';
export const DELIVERY_DLQ = 'event-deliveries-dlq';
export const REGISTRY_OUTBOX_QUEUE = 'registry-outbox';
export const REGISTRY_OUTBOX_DLQ = 'registry-outbox-dlq';
export const MAX_RECEIVE_COUNT = 5;
/** The registry outbox's receives before its DLQ, as in AWS (infra/cdk/constructs/registry-outbox-pipeline.ts). */
export const REGISTRY_OUTBOX_MAX_RECEIVES = 20;

export interface QueueDepth {
  ready: number;
  inflight: number;
  delayed: number;
}

export interface LocalQueues {
  /** fauxqs itself, in this process; clients use the endpoint process in front of it (startQueueEndpoint). */
  endpoint: string;
  port: number;
  scanQueueUrl: string;
  scanQueueArn: string;
  scanDlqUrl: string;
  /** The bulk import queue (one message per chunk of a job) and its DLQ. */
  importQueueUrl: string;
  importQueueArn: string;
  importDlqUrl: string;
  /** The event delivery queue (one message per attempt of an outbound webhook) and its DLQ. */
  deliveryQueueUrl: string;
  deliveryQueueArn: string;
  deliveryDlqUrl: string;
  /** The registry outbox queue (one message per registration to work on, docs/registry.md#the-outbox) and its DLQ. */
  registryOutboxQueueUrl: string;
  registryOutboxQueueArn: string;
  registryOutboxDlqUrl: string;
  /** How many messages each queue holds now, and the bodies in the DLQs. */
  depths(): { scan: QueueDepth; dlq: QueueDepth; dlqBodies: string[]; import: QueueDepth; importDlq: QueueDepth; importDlqBodies: string[]; delivery: QueueDepth; deliveryDlq: QueueDepth; registryOutbox: QueueDepth; registryOutboxDlq: QueueDepth };
  /** Bodies of every message sent to the scan queue so far (newest last, up to 10,000). */
  sentScanEvents(): unknown[];
  stop(): Promise<void>;
}

/**
 * Starts fauxqs (an SQS emulator, in this process) with the scan, import and event delivery queues, each
 * with its DLQ, wired by a redrive policy as the CDK stack wires them.
 */
export async function startQueues(region: string, visibilityTimeoutSeconds = 30): Promise<LocalQueues> {
  const server = await onLoopback(() =>
    startFauxqs({
      port: 0,
      logger: false,
      host: 'localhost',
      defaultRegion: region,
      messageSpies: { bufferSize: 10_000 },
    }),
  );
  if (new URL(server.address).hostname !== '127.0.0.1') {
    await server.stop();
    throw new StartupError(`fauxqs listens on ${server.address}, not on 127.0.0.1 only; stopped it.`);
  }
  const withDlq = (name: string, dlqName: string, maxReceiveCount = MAX_RECEIVE_COUNT) => {
    const deadLetters = server.createQueue(dlqName, { region });
    const main = server.createQueue(name, {
      region,
      attributes: {
        VisibilityTimeout: String(visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: deadLetters.queueArn, maxReceiveCount: String(maxReceiveCount) }),
      },
    });
    return { queue: main, dlq: deadLetters };
  };
  const { queue, dlq } = withDlq(SCAN_QUEUE, SCAN_DLQ);
  const imports = withDlq(IMPORT_QUEUE, IMPORT_DLQ);
  const deliveries = withDlq(DELIVERY_QUEUE, DELIVERY_DLQ);
  const outbox = withDlq(REGISTRY_OUTBOX_QUEUE, REGISTRY_OUTBOX_DLQ, REGISTRY_OUTBOX_MAX_RECEIVES);
  const depth = (name: string): QueueDepth => {
    const state = server.inspectQueue(name);
    return {
      ready: state?.messages.ready.length ?? 0,
      inflight: state?.messages.inflight.length ?? 0,
      delayed: state?.messages.delayed.length ?? 0,
    };
  };
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    port: server.port,
    scanQueueUrl: queue.queueUrl,
    scanQueueArn: queue.queueArn,
    scanDlqUrl: dlq.queueUrl,
    importQueueUrl: imports.queue.queueUrl,
    importQueueArn: imports.queue.queueArn,
    importDlqUrl: imports.dlq.queueUrl,
    deliveryQueueUrl: deliveries.queue.queueUrl,
    deliveryQueueArn: deliveries.queue.queueArn,
    deliveryDlqUrl: deliveries.dlq.queueUrl,
    registryOutboxQueueUrl: outbox.queue.queueUrl,
    registryOutboxQueueArn: outbox.queue.queueArn,
    registryOutboxDlqUrl: outbox.dlq.queueUrl,
    depths: () => ({
      scan: depth(SCAN_QUEUE),
      dlq: depth(SCAN_DLQ),
      dlqBodies: (server.inspectQueue(SCAN_DLQ)?.messages.ready ?? []).map((m) => m.body),
      import: depth(IMPORT_QUEUE),
      importDlq: depth(IMPORT_DLQ),
      importDlqBodies: (server.inspectQueue(IMPORT_DLQ)?.messages.ready ?? []).map((m) => m.body),
      delivery: depth(DELIVERY_QUEUE),
      deliveryDlq: depth(DELIVERY_DLQ),
      registryOutbox: depth(REGISTRY_OUTBOX_QUEUE),
      registryOutboxDlq: depth(REGISTRY_OUTBOX_DLQ),
    }),
    sentScanEvents: () =>
      server.spy
        .getAllMessages()
        .filter((m) => m.service === 'sqs' && m.status === 'published' && m.queueName === SCAN_QUEUE)
        .map((m) => (m.service === 'sqs' ? (JSON.parse(m.body) as unknown) : undefined)),
    stop: () => server.stop(),
  };
}

/**
 * fauxqs has no listen-address option: startFauxqs listens on 0.0.0.0 (its `host` only names the
 * queue URLs), which would let anyone on the network use the queues without authentication. While
 * it starts, its one listen call on 0.0.0.0 is sent to 127.0.0.1 instead; startQueues then checks
 * the address fauxqs reports, so a fauxqs that listens some other way fails the start.
 */
async function onLoopback<T>(start: () => Promise<T>): Promise<T> {
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    const options = args[0] as ListenOptions | undefined;
    if (options && typeof options === 'object' && options.host === '0.0.0.0') args[0] = { ...options, host: '127.0.0.1' };
    return (listen as (...a: unknown[]) => Server).apply(this, args);
  } as typeof listen;
  try {
    return await start();
  } finally {
    Server.prototype.listen = listen;
  }
}

/** The local SQS endpoint's process (infra/local/queue-endpoint.ts): its port and child process. */
export interface QueueEndpoint {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the process that relays 127.0.0.1:`port` (a free port unless given: the port of the one
 * it replaces after a fault) to fauxqs on `fauxqsPort`, and waits until it listens.
 */
export async function startQueueEndpoint(fauxqsPort: number, port?: number): Promise<QueueEndpoint> {
  const listenPort = port ?? (await freePort());
  const child = spawn(process.execPath, [join(import.meta.dirname, 'queue-endpoint.ts'), String(listenPort), String(fauxqsPort)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StartupError(`The local SQS endpoint did not listen within 30 seconds: ${output.trim()}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening ${listenPort}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new StartupError(`The local SQS endpoint exited at start (${signal ?? code}): ${output.trim()}`));
    });
  });
  child.removeAllListeners('exit');
  return {
    endpoint: `http://127.0.0.1:${listenPort}`,
    port: listenPort,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
