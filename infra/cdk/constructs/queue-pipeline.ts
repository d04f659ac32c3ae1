import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Effect, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping, StartingPosition, type FilterCriteria, type IEventSourceDlq, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '../../functions.ts';
import { queueVisibilityTimeoutSeconds, streamFailureQueueActions } from '../function-table.ts';
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
  /**
   * Where the stream mapping reports a record it set aside (`retryAttempts` of the feeding
   * function's trigger): made with the first such mapping, alarmed (alarmTo).
   */
  streamFailureQueue?: Queue;
  private streamFailureAlarm?: Alarm;

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
   * (`id`: the function's construct id): a failing batch is split in two until the failing record
   * is alone (which costs no retry), its failed records reported one by one. That record is retried
   * until it expires from the stream (24 hours), or, with the trigger's `retryAttempts`, that many
   * times, then reported to the stream failure queue and skipped, so that it holds back no other
   * record for longer (docs/webhooks-outbound.md#a-record-that-keeps-failing).
   */
  protected addTableStreamMapping(
    id: string,
    fn: IFunction,
    role: IRole,
    streamArn: string,
    trigger: Extract<NonNullable<FunctionSpec['trigger']>, { kind: 'tableStream' }>,
    filters: Array<ReturnType<typeof FilterCriteria.filter>>,
  ): void {
    const failures = trigger.retryAttempts === undefined ? undefined : this.streamFailures();
    if (failures) {
      // Lambda sends the failure record with the function's role: SendMessage only, written out as the other grants are.
      role.addToPrincipalPolicy(
        new PolicyStatement({ sid: 'StreamFailureQueue', effect: Effect.ALLOW, actions: streamFailureQueueActions(trigger), resources: [failures.queueArn] }),
      );
    }
    // The destination alone: SqsDlq would also grant GetQueueAttributes and GetQueueUrl, which sending does not need.
    const onFailure: IEventSourceDlq | undefined = failures ? { bind: () => ({ destination: failures.queueArn }) } : undefined;
    const mapping = new EventSourceMapping(this, `${id}TableStreamSource`, {
      target: fn,
      eventSourceArn: streamArn,
      startingPosition: StartingPosition.TRIM_HORIZON,
      batchSize: trigger.batchSize,
      maxBatchingWindow: Duration.seconds(trigger.maxBatchingWindowSeconds),
      reportBatchItemFailures: true,
      bisectBatchOnError: true,
      ...(trigger.retryAttempts === undefined ? {} : { retryAttempts: trigger.retryAttempts }),
      ...(onFailure ? { onFailure } : {}),
      filters,
    });
    mapping.node.addDependency(role);
  }

  /** The stream failure queue (14 days, encrypted, TLS-only) and its alarm, made once. */
  private streamFailures(): Queue {
    if (this.streamFailureQueue) return this.streamFailureQueue;
    const queue = new Queue(this, `${this.name}StreamFailureQueue`, {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'It is the on-failure destination of a table stream mapping: the records it set aside after their retries.' });
    new CfnOutput(this, `${this.name}StreamFailureQueueUrl`, { value: queue.queueUrl });
    this.streamFailureAlarm = new Alarm(this, `${this.name}StreamFailureAlarm`, {
      alarmDescription: `Table stream records were set aside after their retries: the ${this.name} pipeline's stream consumer skipped them (docs/webhooks-outbound.md#a-record-that-keeps-failing).`,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.streamFailureQueue = queue;
    return queue;
  }

  /** Sends the pipeline's own alarms (the stream failure queue's, when it has one) to `action`: the stack's alarm topic, made after the pipelines. */
  alarmTo(action: IAlarmAction): void {
    this.streamFailureAlarm?.addAlarmAction(action);
  }
}
