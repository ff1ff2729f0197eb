/**
 * A line of a held commit's change list in words, as the audit trail, the demo and the console's
 * words (change-words.js) say it.
 */
import type { Change } from './staging';
import { quote } from './text';

/** A change in words: `Req. Deliv. Date: 15.03.2026 → 30.04.2026`. */
export function describeChange(c: Change): string {
  const shown = (v: string | null) => (v === null ? '(not read)' : quote(v, 80));
  if (c.kind === 'navigation') {
    return `${c.field}: opened with ${shown(c.after)} (navigation, not a stored change)`;
  }
  const after = c.read_back ?? c.after;
  const flag = {
    same: '',
    differs: ` (typed ${shown(c.after)})`,
    unread: ' (not read back)',
    earlier: ' (typed on an earlier screen)',
    unexplained: ' (changed without a typed edit)',
  }[c.read_back_check];
  return `${c.field}: ${shown(c.before)} → ${shown(after)}${flag}`;
}
