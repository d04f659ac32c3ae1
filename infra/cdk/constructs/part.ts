import { Construct } from 'constructs';

/**
 * A named part of the stack (table, scan pipeline, resolver CDN, sign-in, API, alarms). Parts
 * group the construct tree as the picture in docs/architecture.md does, but they do not take part
 * in logical IDs: PassportStack leaves them out, so every resource keeps the logical ID it had when
 * it was created directly in the stack (a deployed table or user pool is never replaced for a
 * refactoring).
 */
export abstract class StackPart extends Construct {
  static isStackPart(construct: unknown): construct is StackPart {
    return construct instanceof StackPart;
  }
}
