/** Why a remote planner gave a step no decision (docs/models.md): each ends the step as a model error. */
export type RemoteFailure =
  'planner_offline' | 'planner_busy' | 'planner_failed' | 'planner_timeout';

/** Thrown by the remote planner; the engine ends the run `model_error` with `code: message`. */
export class RemotePlannerError extends Error {
  constructor(
    readonly code: RemoteFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RemotePlannerError';
  }
}
