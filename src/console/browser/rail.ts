/**
 * The injection rail on the approval page (issue 16 §2): when text on the screen looked like
 * instructions to the model, Warden held the action whatever it was. The approver is told so above
 * the screenshot, and the flagged text is outlined on it (dashed orange), so they read what the
 * model read before deciding.
 */
import { h, s } from './dom';
import type { Approval, Rect } from './api-types';

/** What each rule means, in a sentence an approver reads. */
const RULES: Readonly<Record<string, string>> = {
  override: 'tries to replace the task or the rules',
  exfiltration: 'asks for a password, a token or other secret',
  approval_bypass: 'asks to act without a person’s approval',
  addressed_to_ai: 'speaks to an AI and tells it what to do',
  money_directive: 'tells to move money now',
  hidden_text: 'is too small for a person to read',
  low_contrast: 'is drawn in colours too close to its background for a person to see',
  too_long: 'is more text than Warden checks (over 6,000 characters), so a person decides',
  rail_error: 'could not be checked (the check failed), so a person decides',
};

/** The notice above the screenshot, or null when the rail did not hold this action. */
export function railNotice(approval: Approval) {
  const rail = approval.rail;
  if (!rail || rail.verdict === 'clean') return null;
  const meaning = RULES[rail.rule ?? ''] ?? 'looks like instructions to the model';
  const where = rail.rect
    ? ' It is outlined in orange on the screenshot.'
    : rail.source === 'ocr'
      ? ' Warden read it from the pixels (OCR), so it is not outlined.'
      : '';
  return h(
    'section',
    { class: 'rail-notice', role: 'note', 'aria-label': 'Text on the screen aimed at the model' },
    h(
      'h2',
      {},
      rail.verdict === 'injected'
        ? 'Instructions to the model on this screen'
        : 'Suspicious text on this screen',
    ),
    h(
      'p',
      {},
      `Text on this screen ${meaning} (${rail.rule ?? 'unknown rule'}). Warden held the model’s action, whatever it is, for you to decide.${where} Approve only what the task itself needs.`,
    ),
  );
}

/**
 * The flagged text on the screenshot: a dashed orange box (the action keeps its red marks).
 * @param overlay in the action's coordinate space
 */
export function drawRail(overlay: SVGSVGElement, rect: Rect) {
  const pad = 3;
  overlay.append(
    s(
      'g',
      { class: 'rail-outline' },
      s('title', {}, 'Text that looks like instructions to the model'),
      s('rect', {
        'vector-effect': 'non-scaling-stroke',
        x: rect.x - pad,
        y: rect.y - pad,
        width: rect.width + 2 * pad,
        height: rect.height + 2 * pad,
      }),
    ),
  );
}
