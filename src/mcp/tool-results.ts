import { Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ApprovalView } from '../computer-use/approvals/approval.view';
import { DomainError } from '../common/domain-error';
import type { StepView } from '../computer-use/runs/run.view';
import { frameOf, type SessionState } from './computer-session.service';

/**
 * What the MCP tools answer (docs/mcp.md), apart from Warden's services: a screen as an image and its
 * frame id, a held write as a wait for a person with the approval's link, a run's end, an error.
 */

/** A tool's answer as text and the same as structured content. */
export function jsonResult(value: Record<string, unknown>, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value,
    ...(isError ? { isError: true } : {}),
  };
}

const logger = new Logger('McpTools');

/**
 * An error of Warden's (a refusal, a conflict, a run not found) as a tool error the calling model
 * reads. Anything else is logged and answered `internal` without its text, which could quote the
 * database or a screen host.
 */
export function errorResult(error: unknown): CallToolResult {
  if (error instanceof DomainError) {
    return jsonResult({ error: error.label ?? error.code, message: error.message }, true);
  }
  logger.error({ err: error }, 'an MCP tool failed');
  return jsonResult(
    { error: 'internal', message: 'Warden failed on this call; the failure is logged' },
    true,
  );
}

/** A step as the agent reads it: what it did, how Warden classified it, what became of it. */
export function stepSummary(step: StepView | null): Record<string, unknown> | null {
  if (!step) return null;
  return {
    n: step.n,
    action: step.action,
    classification: step.classification,
    outcome: step.outcome,
    why: step.why,
    ...(step.error ? { error: step.error } : {}),
  };
}

/** Who may decide a held write, in words. */
export function whoMayDecide(approval: ApprovalView): string {
  return approval.may_decide_now && approval.may_decide_now.length > 0
    ? approval.may_decide_now.join(', ')
    : `anyone with agents.approve in tenant ${approval.tenant} but the run's starter where four-eyes applies`;
}

/** What a held write looks like to the calling agent: it waits for a person, never for the model. */
export function heldFields(approval: ApprovalView, consoleBase: string): Record<string, unknown> {
  const link = `${consoleBase}/console/approvals/${approval.id}`;
  return {
    status: 'held_for_a_person',
    message: `Step ${approval.step}'s write (${approval.why}) is held for a person: ${whoMayDecide(approval)} may approve or reject it at ${link} until ${approval.expires_at}. You cannot approve it. Call approval_status with this run_id to learn the decision; once approved, Warden sends the write once, onto the screen the approver saw, and answers the new screen.`,
    approval_id: approval.id,
    approval_status: approval.status,
    approval_url: link,
    may_decide: approval.may_decide_now,
    expires_at: approval.expires_at,
    step: approval.step,
    action: approval.action,
  };
}

/** A session's state as the tool's answer: the screen (an image and its frame id) or the wait. */
export function sessionResult(state: SessionState, consoleBase: string): CallToolResult {
  const common = {
    run_id: state.run.id,
    run_status: state.run.status,
    last_step: stepSummary(state.last),
  };
  switch (state.kind) {
    case 'screen': {
      const input = state.work.input as {
        frame?: { width?: number; height?: number };
        outline?: { text?: string; elements?: unknown[] } | null;
        image?: { base64?: string } | null;
      };
      const fields = {
        ...common,
        status: 'your_decision',
        step: state.work.step,
        frame_id: frameOf(state.work),
        width: input.frame?.width ?? null,
        height: input.frame?.height ?? null,
        outline: input.outline?.text ?? null,
        elements: input.outline?.elements ?? null,
        decide_by: state.work.deadlineAt.toISOString(),
      };
      const image = input.image?.base64;
      return {
        content: [
          ...(image ? [{ type: 'image' as const, data: image, mimeType: 'image/png' }] : []),
          { type: 'text', text: JSON.stringify(fields) },
        ],
        structuredContent: fields,
      };
    }
    case 'held':
      return jsonResult({ ...common, ...heldFields(state.approval, consoleBase) });
    case 'ended':
      return jsonResult({
        ...common,
        status: 'ended',
        end_reason: state.run.end_reason,
        summary: state.run.summary,
      });
    case 'working':
      return jsonResult({
        ...common,
        status: 'working',
        message: 'Warden is still observing or settling the screen: call screenshot again',
      });
  }
}
