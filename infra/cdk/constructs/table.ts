import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CfnOutput, RemovalPolicy } from 'aws-cdk-lib';
import { BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableShape } from '../table.ts';
import { StackPart } from './part.ts';

export interface DataTableProps {
  /** Default: the local stack's CreateTable input (lib/data/table.ts). */
  tableInput?: CreateTableCommandInput;
}

/**
 * The single DynamoDB table (docs/architecture.md), keyed as the local table is: on-demand,
 * point-in-time recovery, deletion protection, TTL, retained when the stack goes. It grants
 * nothing itself; each function's role gets its actions on `resources` (the table and its indexes).
 */
export class DataTable extends StackPart {
  readonly table: Table;
  /** The table's ARN and its indexes' ARNs, for the functions' least-privilege statements. */
  readonly resources: string[];

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);
    const shape = tableShape(props.tableInput);
    this.table = new Table(this, 'Table', {
      partitionKey: shape.partitionKey,
      ...(shape.sortKey ? { sortKey: shape.sortKey } : {}),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      timeToLiveAttribute: shape.ttlAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
      ...(shape.stream ? { stream: shape.stream } : {}),
    });
    for (const index of shape.globalSecondaryIndexes) this.table.addGlobalSecondaryIndex(index);
    this.resources = [this.table.tableArn, ...shape.globalSecondaryIndexes.map((i) => `${this.table.tableArn}/index/${i.indexName}`)];
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
  }
}
