import type { WorkRow } from './planner-work.repository';
import { isWorkerErrorCode, WORKER_ERROR_CODES, workNext } from './work-decisions';

const NOW = new Date('2026-12-03T12:00:00Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

function work(fields: Partial<WorkRow> = {}) {
  return {
    status: 'waiting' as WorkRow['status'],
    deadlineAt: at(60),
    family: 'acme-vision',
    worker: null,
    decision: null,
    errorKind: null,
    errorLength: null,
    ...fields,
  };
}

describe('workNext: what becomes of a step waiting for a remote planner', () => {
  it('decides on an answer, whatever the clock says', () => {
    const decision = { action: 'done', summary: 'ok' };
    expect(workNext(work({ status: 'answered', decision }), at(600), null, 30, 60)).toEqual({
      go: 'decide',
      decision,
    });
  });

  it('waits while a worker asked within the heartbeat, until the earlier of its end and the deadline', () => {
    expect(workNext(work(), NOW, at(-10), 30, 60)).toEqual({ go: 'wait', checkAt: at(20.05) });
    expect(workNext(work({ deadlineAt: at(5) }), NOW, at(-1), 30, 60)).toEqual({
      go: 'wait',
      checkAt: at(5.05),
    });
  });

  it('fails planner_timeout at the deadline, even with a worker asking', () => {
    expect(workNext(work({ deadlineAt: NOW }), NOW, NOW, 30, 60)).toEqual({
      go: 'fail',
      code: 'planner_timeout',
      message: "no decision within the planner's deadline of 60 s",
      close: 'timed_out',
    });
  });

  it('fails planner_offline after the heartbeat: no worker, or the claimer went quiet', () => {
    expect(workNext(work(), NOW, null, 30, 60)).toMatchObject({
      code: 'planner_offline',
      message: 'no worker of remote planner family acme-vision asked for work in the last 30 s',
      close: 'offline',
    });
    expect(workNext(work(), NOW, at(-30), 30, 60)).toMatchObject({ code: 'planner_offline' });
    expect(workNext(work(), NOW, at(-29), 30, 60)).toMatchObject({ go: 'wait' });
    expect(
      workNext(work({ status: 'claimed', worker: 'gpu-1' }), NOW, at(-31), 30, 60),
    ).toMatchObject({
      code: 'planner_offline',
      message: 'the worker "gpu-1" that claimed the step has not asked for work for 30 s',
    });
  });

  it('fails planner_failed with the error kind, or its length only', () => {
    expect(
      workNext(
        work({ status: 'failed', worker: 'w', errorKind: 'model_unreachable' }),
        NOW,
        null,
        30,
        60,
      ),
    ).toEqual({
      go: 'fail',
      code: 'planner_failed',
      message: 'the worker "w" answered an error: model_unreachable',
    });
    expect(
      workNext(work({ status: 'failed', worker: 'w', errorLength: 42 }), NOW, null, 30, 60),
    ).toMatchObject({
      message:
        'the worker "w" answered an error of 42 characters (its text is not kept: it could quote the step\'s input)',
    });
  });

  it('answers work closed before as it was closed, without closing it again', () => {
    expect(workNext(work({ status: 'timed_out' }), NOW, NOW, 30, 60)).toEqual({
      go: 'fail',
      code: 'planner_timeout',
      message: "no decision within the planner's deadline of 60 s",
    });
    expect(workNext(work({ status: 'offline' }), NOW, NOW, 30, 60)).not.toHaveProperty('close');
  });

  it('keeps an error as its kind only when it is a code of the documented list', () => {
    for (const code of [...WORKER_ERROR_CODES, 'model_http_503', 'model_http_429']) {
      expect(isWorkerErrorCode(code)).toBe(true);
    }
    for (const text of [
      'Model unreachable',
      'order 4711 failed',
      'x'.repeat(65),
      '',
      'a b',
      // Word-shaped, yet data: a lower-cased IBAN, a name run together, another status.
      'de89370400440532013000',
      'mrs_secret_order_4711',
      'model_http_999',
      'model_http_5030',
      'model_unreachable ',
    ]) {
      expect(isWorkerErrorCode(text)).toBe(false);
    }
  });
});
