import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { config } from '../config.ts';
import { awsJsonClient, type AwsJsonClient } from './aws-json.ts';
import { countDynamoCall } from './call-counts.ts';
import { publicReads, type GetItem } from './public-reads.ts';

/**
 * The resolver's reads (lib/data/public-reads.ts) over the small AWS JSON client instead of the
 * SDK: docs/decisions.md#the-scan-path-speaks-to-aws-without-the-sdk. Nothing here may import
 * the AWS SDK's clients (a bundle test checks the resolver's bundle).
 */
let client: AwsJsonClient | undefined;

function dynamodb(): AwsJsonClient {
  if (client) return client;
  const { region, dynamodbEndpoint } = config();
  client = awsJsonClient(
    { signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', region, endpoint: dynamodbEndpoint ?? `https://dynamodb.${region}.amazonaws.com` },
    dynamodbEndpoint !== undefined,
  );
  return client;
}

const getItem: GetItem = async (key) => {
  countDynamoCall('GetItemCommand');
  const { Item } = await dynamodb().call<{ Item?: Record<string, AttributeValue> }>('GetItem', { TableName: config().tableName, Key: marshall(key) });
  return Item ? unmarshall(Item) : undefined;
};

export const { getPublicView, getVersionPage, findDomainByHostname } = publicReads(getItem);
