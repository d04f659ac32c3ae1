/** A tenant is one organization in one environment; every stored item belongs to exactly one. */
export const ENVIRONMENTS = ['live', 'test'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface Tenant {
  orgId: string;
  environment: Environment;
}

export function isEnvironment(value: string): value is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(value);
}
