import { Duration } from 'aws-cdk-lib';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, type IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '../../functions.ts';
import { QueuePipeline, type QueuePipelineProps } from './queue-pipeline.ts';

/**
 * Receives before an outbox message goes to the DLQ: a registry that answers 5xx fails the message,
 * invisible for its Retry-After or a backoff of 1, 2, 4, … s up to 15 minutes, so 20 receives are
 * hours of outage before a registration waits in the DLQ (docs/registry.md#the-outbox).
 */
export const REGISTRY_OUTBOX_MAX_RECEIVES = 20;

/**
 * The registry outbox (docs/registry.md#the-outbox): the `registry-outbox` queue and its DLQ, the
 * worker's event source mapping (from QueuePipeline), and the feed's mapping on the table's stream,
 * filtered to registration items written or changed into a status the outbox works on, so that the
 * feed is invoked for nothing else. A failing stream batch is split and retried until it succeeds.
 * An EventBridge rule puts the daily proof renewal sweep on the queue.
 */
export class RegistryOutboxPipeline extends QueuePipeline {
  constructor(scope: Construct, id: string, props: QueuePipelineProps) {
    super(scope, id, 'RegistryOutbox', props);
    // The daily sweep for proofs of registration due for renewal: a message on the outbox queue, which the
    // worker answers by queueing each registration due (docs/registry.md#proof-of-registration).
    new Rule(this, 'ProofRenewalSweep', {
      description: 'Daily: the registry outbox sweeps for proofs of registration due for renewal',
      schedule: Schedule.rate(Duration.days(1)),
      targets: [new SqsQueue(this.queue, { message: RuleTargetInput.fromObject({ kind: 'proof-renewals' }) })],
    });
  }

  /** The feed's event source mapping on the table stream (`id`: the function's construct id). */
  addStreamConsumer(id: string, fn: IFunction, role: IRole, streamArn: string, trigger: Extract<NonNullable<FunctionSpec['trigger']>, { kind: 'tableStream' }>): void {
    this.addTableStreamMapping(id, fn, role, streamArn, trigger, [
      FilterCriteria.filter({
        eventName: FilterRule.or('INSERT', 'MODIFY'),
        dynamodb: { NewImage: { type: { S: FilterRule.isEqual(trigger.itemType) }, status: { S: FilterRule.or(...(trigger.changedWithStatus ?? [])) } } },
      }),
      // Or a (de)activation its item's life asks for, on a `registered` or `deactivated` record (docs/registry.md#lifecycle).
      FilterCriteria.filter({
        eventName: FilterRule.or('INSERT', 'MODIFY'),
        dynamodb: { NewImage: { type: { S: FilterRule.isEqual(trigger.itemType) }, deactivation: { S: FilterRule.exists() } } },
      }),
    ]);
  }
}
