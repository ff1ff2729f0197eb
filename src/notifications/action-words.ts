import type { Action } from '@warden/protocol';

/**
 * An action in words for a message (docs/security.md): "click “Save” at (412, 310)". Typed text is a
 * count of characters unless the agent allows its text out (`notify_include_screen`), because a
 * chat channel or a mailbox is read by more people than the approvers.
 */
export function actionInWords(action: Action, includeText: boolean): string {
  switch (action.action) {
    case 'click':
    case 'double_click': {
      const verb = action.action === 'click' ? 'click' : 'double-click';
      const on = action.target ? ` “${action.target}”` : '';
      return `${verb}${on} at (${action.x}, ${action.y})`;
    }
    case 'type':
      return includeText
        ? `type ${JSON.stringify(action.text)}`
        : `type typed text (${characters(action.text)} characters)`;
    case 'key':
      return `press ${action.key}`;
    case 'scroll':
      return `scroll ${action.direction} ${action.amount} at (${action.x}, ${action.y})`;
    case 'wait':
      return `wait ${action.seconds} s`;
    case 'done':
      return 'done';
    case 'fail':
      return 'fail';
    default:
      return 'an action Warden does not know';
  }
}

/** Code points, as the action vocabulary counts typed text. */
function characters(text: string): number {
  return [...text].length;
}
