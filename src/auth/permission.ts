/** The permissions a token can carry (DESIGN §1). */
export const PERMISSIONS = [
  'computer_use.admin',
  'agents.operate',
  'agents.approve',
  'audit.read',
  'governance.weaken',
  /** A remote planner's worker: asks for, claims and answers its families' waiting steps (DESIGN §8). */
  'planners.serve',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}
