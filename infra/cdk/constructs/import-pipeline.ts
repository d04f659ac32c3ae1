import type { Construct } from 'constructs';
import { QueuePipeline, type QueuePipelineProps } from './queue-pipeline.ts';

/** The bulk import road after the upload (docs/imports.md): one message per chunk of a job, its DLQ and the import worker's event source mapping. */
export class ImportPipeline extends QueuePipeline {
  constructor(scope: Construct, id: string, props: QueuePipelineProps) {
    super(scope, id, 'Import', props);
  }
}
