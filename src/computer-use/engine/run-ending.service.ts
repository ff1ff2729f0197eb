import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { WARDEN_ACTOR } from '../../audit/warden-actor';
import type { Run } from '../runs/run.entity';
import { RunLifecycle } from '../runs/run-lifecycle.service';
import { RunsRepository } from '../runs/runs.repository';
import type { Step } from '../runs/step.entity';
import { StepsRepository } from '../runs/steps.repository';
import type { RunEnds } from './run-ends';

/**
 * Ends a run where one of its steps said so (RunEnds): the step's last state, its own audit event
 * and the run's end in one transaction; then the screen host goes to the next queued run and the
 * agent's channels hear of the end. The step's event is written only by the end that ends the
 * step (or where the step had ended already): a step that another worker recorded meanwhile, or
 * that the run's end closed, keeps the record it has.
 */
@Injectable()
export class RunEnding {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly runs: RunsRepository,
    private readonly steps: StepsRepository,
    private readonly audit: AuditService,
    private readonly lifecycle: RunLifecycle,
  ) {}

  async end(run: Run, step: Step, ends: RunEnds): Promise<void> {
    const ended = await this.dataSource.transaction(async (manager) => {
      // The run's row before the step's (the lock order of StepsRepository).
      await this.runs.lock(manager, run.id);
      const stepEnded =
        step.phase === 'done' ||
        (await this.steps.move(
          step,
          step.phase,
          'done',
          { ...ends.step.fields, outcome: ends.step.outcome, endedAt: new Date() },
          { manager },
        ));
      if (ends.event && stepEnded) {
        await this.audit.record(
          {
            tenant: run.tenant,
            type: ends.event.type,
            actor: WARDEN_ACTOR,
            runId: run.id,
            step: step.n,
            details: { agent: run.agent, ...ends.event.details },
          },
          manager,
        );
      }
      return this.lifecycle.end(run.id, ends.reason, ends.summary, WARDEN_ACTOR, {
        step: step.n,
        manager,
      });
    });
    if (ended) await this.lifecycle.afterEnd(ended);
  }
}
