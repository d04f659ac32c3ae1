import { App, Stack, Validations, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { PassportStack, type PassportStackProps } from '../../infra/cdk/stack.ts';

/** A synthesized stack and what the tests look up in it. */
export interface Synthesized {
  app: App;
  stack: PassportStack;
  template: Template;
  resources: Record<string, CfnTemplateResource>;
}

export interface CfnTemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string[];
}

/**
 * Builds and synthesizes the stack once. Bundling is skipped (`aws:cdk:bundling-stacks` = []),
 * which keeps a synthesis to about a second; test/infra/bundling.test.ts bundles for real.
 */
export function synthesize(props: PassportStackProps = {}, context: Record<string, unknown> = {}): Synthesized {
  // CloudFormation's schema validation (WebAssembly, ~2 s to load) runs in `npm run synth` instead.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context }, builtinCloudFormationValidation: false });
  const stack = new PassportStack(app, 'PassportTest', props);
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, CfnTemplateResource>;
  return { app, stack, template, resources };
}

export const logicalId = (construct: IConstruct): string =>
  Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnResource);

export const functionLogicalId = (synth: Synthesized, name: string): string => {
  const fn = synth.stack.functions[name];
  if (!fn) throw new Error(`No function ${name} in the stack`);
  return Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);
};

export const ofType = (synth: Synthesized, type: string): [string, CfnTemplateResource][] =>
  Object.entries(synth.resources).filter(([, r]) => r.Type === type);

export interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** Every IAM statement attached to a function's role, inline or as AWS::IAM::Policy. */
export function roleStatements(synth: Synthesized, name: string): { statements: Statement[]; managedPolicies: unknown[] } {
  const fn = synth.resources[functionLogicalId(synth, name)];
  const roleId = (fn?.Properties?.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const role = synth.resources[roleId];
  const statements: Statement[] = [];
  for (const policy of (role?.Properties?.Policies as { PolicyDocument: { Statement: Statement[] } }[] | undefined) ?? []) {
    statements.push(...policy.PolicyDocument.Statement);
  }
  for (const [, resource] of ofType(synth, 'AWS::IAM::Policy')) {
    const roles = (resource.Properties?.Roles as { Ref: string }[] | undefined) ?? [];
    if (roles.some((r) => r.Ref === roleId)) {
      statements.push(...(resource.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
    }
  }
  return { statements, managedPolicies: (role?.Properties?.ManagedPolicyArns as unknown[] | undefined) ?? [] };
}

export const actionsOf = (statement: Statement): string[] => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]);

/** Every acknowledged cdk-nag rule in the tree, with its reason. */
export function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({ path: construct.node.path, id, reason }))),
  );
}

/** The properties of the one resource of `type` (fails when there is not exactly one). */
export function single(synth: Synthesized, type: string): Record<string, unknown> {
  const found = ofType(synth, type);
  if (found.length !== 1) throw new Error(`Expected one ${type}, found ${found.length}`);
  return found[0]?.[1].Properties ?? {};
}

/** A distribution's origin group, by its id, as CloudFront holds it. */
interface OriginGroupConfig {
  Id: string;
  FailoverCriteria: { StatusCodes: { Items: number[] } };
  Members: { Items: { OriginId: string }[] };
}

/** The origin group `id` of a distribution config, undefined for a plain origin's id. */
export const originGroupOf = (config: Record<string, unknown>, id: string): OriginGroupConfig | undefined =>
  ((config.OriginGroups as { Items?: OriginGroupConfig[] } | undefined)?.Items ?? []).find((group) => group.Id === id);

/** The origin a behaviour's target reaches first: an origin group's primary member, or the origin itself. */
export const primaryOriginId = (config: Record<string, unknown>, targetId: string): string => originGroupOf(config, targetId)?.Members.Items[0]?.OriginId ?? targetId;

/** An origin of a distribution config, by id. */
export const originOf = (config: Record<string, unknown>, id: string): Record<string, unknown> | undefined =>
  (config.Origins as Record<string, unknown>[]).find((origin) => origin.Id === id);
