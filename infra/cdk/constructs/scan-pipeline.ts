import type { Construct } from 'constructs';
import { QueuePipeline, type QueuePipelineProps } from './queue-pipeline.ts';

/** The scan road after the resolver (docs/architecture.md): the scan queue, its DLQ and the aggregator's event source mapping. */
export class ScanPipeline extends QueuePipeline {
  constructor(scope: Construct, id: string, props: QueuePipelineProps) {
    super(scope, id, 'Scan', props);
  }
}
