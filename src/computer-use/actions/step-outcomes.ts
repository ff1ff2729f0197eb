/**
 * The outcomes of an earlier step as the rules read them: whether its action reached the screen.
 * Its own file so that what the rules read of earlier steps (typed-field.ts, a screen rule for the
 * command field) does not go through what they judge now.
 */

/** The outcomes of a step whose action reached the screen. */
export const PERFORMED: ReadonlySet<string> = new Set([
  'sent',
  'sent_after_approval',
  'staged',
  'refused_by_application',
]);
