import { Injectable } from '@nestjs/common';
import { ApprovalsRepository } from '../computer-use/approvals/approvals.repository';
import type { Caller } from '../auth/caller';
import { notFound } from '../common/domain-error';
import type { RunView } from '../computer-use/runs/run.view';
import { RunsService } from '../computer-use/runs/runs.service';

/** What the console needs beyond the public API. */
@Injectable()
export class ConsoleService {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly runs: RunsService,
  ) {}

  /**
   * The run behind a waiting action, with its steps: the goal and the earlier steps an approver
   * weighs the write against. Only through an approval of the caller's tenant, so `agents.approve`
   * reads the runs that asked it for a decision and no others.
   */
  async runOfApproval(caller: Caller, approvalId: string): Promise<RunView> {
    const approval = await this.approvals.findInTenant(caller.tenant, approvalId);
    if (!approval) throw notFound(`no approval ${approvalId}`);
    return this.runs.get(caller, approval.runId);
  }
}
