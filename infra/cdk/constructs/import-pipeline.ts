import { CfnOutput, Duration } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '../../functions.ts';
import { scanVisibilityTimeoutSeconds } from '../function-table.ts';
import { StackPart } from './part.ts';

export interface ImportPipelineProps {
  /** The functions the import queue triggers (their timeouts set the visibility timeout). */
  consumers: readonly FunctionSpec[];
}

/**
 * The bulk import road after the upload (docs/imports.md): the import queue, one message per chunk
 * of a job, its dead-letter queue (after 5 receives), both encrypted and TLS-only, and the event
 * source mapping of the import worker. Like the scan pipeline (scan-pipeline.ts) it grants nothing
 * itself: the imports function's SendMessage and the worker's receive actions are statements on
 * their own roles (infra/functions.ts).
 */
export class ImportPipeline extends StackPart {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: ImportPipelineProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'ImportDeadLetterQueue', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, 'ImportQueue', {
      // Six times the worker's timeout (AWS's advice for SQS event sources), as for the scan queue.
      visibilityTimeout: Duration.seconds(scanVisibilityTimeoutSeconds(props.consumers)),
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
    new CfnOutput(this, 'ImportQueueUrl', { value: this.queue.queueUrl });
    new CfnOutput(this, 'ImportDeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });
  }

  /** Lambda's SQS event source mapping for a consumer, with batch item failures (`id`: the function's construct id). */
  addConsumer(id: string, fn: IFunction, role: IRole, trigger: NonNullable<FunctionSpec['trigger']>): void {
    const mapping = new EventSourceMapping(this, `${id}ImportQueueSource`, {
      target: fn,
      eventSourceArn: this.queue.queueArn,
      batchSize: trigger.batchSize,
      maxBatchingWindow: Duration.seconds(trigger.maxBatchingWindowSeconds),
      reportBatchItemFailures: true,
    });
    // The mapping is validated against the role's permissions when it is created.
    mapping.node.addDependency(role);
  }
}
