import { CfnOutput, Duration } from 'aws-cdk-lib';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping, StartingPosition, type FilterCriteria, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '../../functions.ts';
import { queueVisibilityTimeoutSeconds } from '../function-table.ts';
import { StackPart } from './part.ts';

export interface QueuePipelineProps {
  /** The functions the queue triggers (their timeouts set the visibility timeout). */
  consumers: readonly FunctionSpec[];
  /** Receives before a message goes to the DLQ (default 5). */
  maxReceiveCount?: number;
}

/**
 * A queue that feeds Lambda functions (docs/architecture.md): the queue, its dead-letter queue
 * (after 5 receives, or the pipeline's own count), both encrypted and TLS-only, an output naming each, and the event source
 * mapping of each consuming function. It grants nothing itself: the sender's SendMessage and the
 * consumers' receive actions are statements on their own roles (infra/functions.ts). `name` prefixes
 * every logical id (`ScanQueue`, `ImportDeadLetterQueue`, …), so the ids stay those the stack had.
 */
export class QueuePipeline extends StackPart {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(
    scope: Construct,
    id: string,
    private readonly name: string,
    props: QueuePipelineProps,
  ) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, `${name}DeadLetterQueue`, {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new Queue(this, `${name}Queue`, {
      // Six times the consumers' longest timeout (AWS's advice for SQS event sources).
      visibilityTimeout: Duration.seconds(queueVisibilityTimeoutSeconds(props.consumers)),
      retentionPeriod: Duration.days(4),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount ?? 5 },
    });
    new CfnOutput(this, `${name}QueueUrl`, { value: this.queue.queueUrl });
    new CfnOutput(this, `${name}DeadLetterQueueUrl`, { value: this.deadLetterQueue.queueUrl });
  }

  /** Lambda's SQS event source mapping for a consumer, with batch item failures (`id`: the function's construct id). */
  addConsumer(id: string, fn: IFunction, role: IRole, trigger: NonNullable<FunctionSpec['trigger']>): void {
    const mapping = new EventSourceMapping(this, `${id}${this.name}QueueSource`, {
      target: fn,
      eventSourceArn: this.queue.queueArn,
      batchSize: trigger.batchSize,
      maxBatchingWindow: Duration.seconds(trigger.maxBatchingWindowSeconds),
      reportBatchItemFailures: true,
    });
    // The mapping is validated against the role's permissions when it is created.
    mapping.node.addDependency(role);
  }

  /**
   * The feeding function's event source mapping on the table stream, with the pipeline's `filters`
   * (`id`: the function's construct id): a failing batch is split and retried until it succeeds
   * (the stream keeps records 24 hours), its failed records reported one by one.
   */
  protected addTableStreamMapping(
    id: string,
    fn: IFunction,
    role: IRole,
    streamArn: string,
    trigger: Extract<NonNullable<FunctionSpec['trigger']>, { kind: 'tableStream' }>,
    filters: Array<ReturnType<typeof FilterCriteria.filter>>,
  ): void {
    const mapping = new EventSourceMapping(this, `${id}TableStreamSource`, {
      target: fn,
      eventSourceArn: streamArn,
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: trigger.batchSize,
      maxBatchingWindow: Duration.seconds(trigger.maxBatchingWindowSeconds),
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      filters,
    });
    mapping.node.addDependency(role);
  }
}
