import { CfnOutput, Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { pascal } from '../function-table.ts';
import { StackPart } from './part.ts';

export interface AlarmsProps {
  deadLetterQueue: IQueue;
  /** The import queue's DLQ (constructs/import-pipeline.ts). */
  importDeadLetterQueue?: IQueue;
  /** The event delivery queue's DLQ (constructs/event-delivery-pipeline.ts). */
  eventDeliveryDeadLetterQueue?: IQueue;
  /** The registry outbox queue's DLQ (constructs/registry-outbox-pipeline.ts). */
  registryOutboxDeadLetterQueue?: IQueue;
  api: HttpApi;
  functions: Readonly<Record<string, IFunction & { readonly logGroup: ILogGroup }>>;
  /** The functions that answer HTTP (those the route table names): each gets an alarm on its 503 rate. */
  httpFunctions?: readonly string[];
  /** Subscribed to the alarm topic when set. */
  email?: string;
}

/**
 * The alarms, to one TLS-only SNS topic (optionally e-mailed): scan events in the dead-letter
 * queue, import chunks in theirs, more than 1% of API requests answered 5xx over 5 minutes, any throttling of each
 * function, and more than 1% of an HTTP function's invocations answered 503 over 5 minutes (a dependency
 * down: docs/api.md#when-a-dependency-is-down), counted from its log by a metric filter. It grants
 * CloudWatch alarms publishing to the topic (SnsAction).
 */
export class Alarms extends StackPart {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Product Passport alarms', enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    const notify: IAlarmAction = new SnsAction(this.topic);
    const above = { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 1, treatMissingData: TreatMissingData.NOT_BREACHING };
    new Alarm(this, 'ScanDeadLetterAlarm', {
      alarmDescription: 'Scan events are in the dead-letter queue: the aggregator failed them 5 times.',
      metric: props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      ...above,
    }).addAlarmAction(notify);
    if (props.importDeadLetterQueue) {
      new Alarm(this, 'ImportDeadLetterAlarm', {
        alarmDescription: 'Import chunks are in the dead-letter queue: the import worker failed them 5 times, so their jobs stay running (docs/imports.md).',
        metric: props.importDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        ...above,
      }).addAlarmAction(notify);
    }
    if (props.eventDeliveryDeadLetterQueue) {
      new Alarm(this, 'EventDeliveryDeadLetterAlarm', {
        alarmDescription: 'Event delivery attempts are in the dead-letter queue: the delivery worker could not record or queue them 5 times (docs/webhooks-outbound.md).',
        metric: props.eventDeliveryDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        ...above,
      }).addAlarmAction(notify);
    }
    if (props.registryOutboxDeadLetterQueue) {
      new Alarm(this, 'RegistryOutboxDeadLetterAlarm', {
        alarmDescription: 'Registrations are in the registry outbox dead-letter queue: the worker failed them 20 times; they stay as they were until redriven (docs/registry.md#the-outbox).',
        metric: props.registryOutboxDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        ...above,
      }).addAlarmAction(notify);
    }
    new Alarm(this, 'Api5xxRateAlarm', {
      alarmDescription: 'More than 1% of API requests answered 5xx over 5 minutes.',
      metric: new MathExpression({
        label: '5xx rate (%)',
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: props.api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
          requests: props.api.metricCount({ period: Duration.minutes(5), statistic: 'Sum' }),
        },
        period: Duration.minutes(5),
      }),
      threshold: 1,
      ...above,
    }).addAlarmAction(notify);
    for (const [name, fn] of Object.entries(props.functions)) {
      new Alarm(this, `${pascal(name)}ThrottlesAlarm`, {
        alarmDescription: `The ${name} function was throttled.`,
        metric: fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 0,
        ...above,
      }).addAlarmAction(notify);
    }
    for (const name of props.httpFunctions ?? []) {
      const fn = props.functions[name];
      if (!fn) continue;
      // The line lib/http/availability.ts (and the readiness function) writes for every 503 of an unavailable dependency.
      const unavailable = new MetricFilter(this, `${pascal(name)}UnavailableFilter`, {
        logGroup: fn.logGroup,
        filterPattern: FilterPattern.stringValue('$.errorType', '=', 'service_unavailable'),
        metricNamespace: 'ProductPassport/ServiceUnavailable',
        metricName: name,
        metricValue: '1',
        defaultValue: 0,
      });
      new Alarm(this, `${pascal(name)}UnavailableRateAlarm`, {
        alarmDescription: `More than 1% of the ${name} function's requests answered 503 over 5 minutes: DynamoDB, SQS or KMS did not answer or throttled (docs/api.md#when-a-dependency-is-down).`,
        metric: new MathExpression({
          label: `${name} 503 rate (%)`,
          expression: 'IF(invocations > 0, 100 * unavailable / invocations, 0)',
          usingMetrics: {
            unavailable: unavailable.metric({ period: Duration.minutes(5), statistic: 'Sum' }),
            invocations: fn.metricInvocations({ period: Duration.minutes(5), statistic: 'Sum' }),
          },
          period: Duration.minutes(5),
        }),
        threshold: 1,
        ...above,
      }).addAlarmAction(notify);
    }
    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn });
  }
}
