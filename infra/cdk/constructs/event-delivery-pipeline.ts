import type { IRole } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, type IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { FunctionSpec } from '../../functions.ts';
import { QueuePipeline, type QueuePipelineProps } from './queue-pipeline.ts';

/**
 * The outbound webhook road (docs/webhooks-outbound.md#how-it-works): the event delivery queue and
 * its DLQ, the delivery worker's event source mapping (from QueuePipeline), and the fan-out's
 * mapping on the table's stream, filtered to new event-log items so that the fan-out is invoked
 * for nothing else. A failing stream batch is split until the failing record is alone; that record
 * is retried as often as the fan-out's trigger says (infra/functions.ts), then reported to the
 * stream failure queue (alarmed) and skipped, so that one event that cannot be fanned out never
 * holds back the others (docs/webhooks-outbound.md#a-record-that-keeps-failing). The scan-spill
 * function's mapping, made here too, sets no record aside.
 */
export class EventDeliveryPipeline extends QueuePipeline {
  constructor(scope: Construct, id: string, props: QueuePipelineProps) {
    super(scope, id, 'EventDelivery', props);
  }

  /** The fan-out's event source mapping on the table stream (`id`: the function's construct id). */
  addStreamConsumer(id: string, fn: IFunction, role: IRole, streamArn: string, trigger: Extract<NonNullable<FunctionSpec['trigger']>, { kind: 'tableStream' }>): void {
    this.addTableStreamMapping(id, fn, role, streamArn, trigger, [
      FilterCriteria.filter({ eventName: FilterRule.isEqual('INSERT'), dynamodb: { NewImage: { type: { S: FilterRule.isEqual(trigger.itemType) } } } }),
    ]);
  }
}
