import type { EntityManager } from 'typeorm';
import type { AuditService } from '../../audit/audit.service';
import type { Caller } from '../../auth/caller';
import type { Weakening } from './weakening';

/**
 * Audits each weakening as `governance.weaken` (docs/security.md): the agent, the control, its from →
 * to and what else the table says of it, the reason, and the config version that put it in force.
 */
export async function auditWeakenings(
  audit: AuditService,
  manager: EntityManager,
  caller: Caller,
  weakened: readonly Weakening[],
  context: { version: number; reason: (agent: string) => string | null | undefined } & Record<
    string,
    unknown
  >,
): Promise<void> {
  const { version, reason, ...also } = context;
  for (const { agent, ...weakening } of weakened) {
    await audit.record(
      {
        tenant: caller.tenant,
        type: 'governance.weaken',
        actor: caller.subject,
        details: {
          agent,
          ...weakening,
          ...also,
          reason: reason(agent),
          version,
          token_id: caller.tokenId,
        },
      },
      manager,
    );
  }
}
