import { insideModel, type ScreenScale, toScreen } from './scaling';
import type { Move } from './provider';

/**
 * A model's move as the engine takes it: an action in the screen's coordinates, or the refused
 * answer, and what the model is to be told about it (null: nothing). A point outside the image is
 * mapped as it is: it lands outside the screen, where the engine refuses it; never clamped. The
 * model is told in its own coordinates. Pure.
 */
export function screenAnswer(
  move: Move,
  scale: ScreenScale,
): { answer: Record<string, unknown>; note: string | null } {
  if (move.kind === 'look') return { answer: { action: 'screenshot' }, note: null };
  if (move.kind === 'zoom') return { answer: { action: 'zoom', region: move.region }, note: null };
  const a = { ...(move.kind === 'refused' ? move.answer : move.action) };
  let note = move.kind === 'refused' ? move.note : null;
  if (Number.isSafeInteger(a.x) && Number.isSafeInteger(a.y)) {
    const x = a.x as number;
    const y = a.y as number;
    if (move.kind === 'action' && !insideModel(scale, x, y)) {
      note = `the point (${x}, ${y}) is outside the screenshot (${scale.model.width}x${scale.model.height})`;
    }
    Object.assign(a, toScreen(scale, x, y));
  }
  return { answer: a, note };
}

/** `screenAnswer`, its note kept under the step's number (and an old one dropped). */
export function toScreenAction(
  move: Move,
  scale: ScreenScale,
  notes: Record<string, string>,
  step: number,
): unknown {
  delete notes[String(step)];
  const { answer, note } = screenAnswer(move, scale);
  if (note !== null) notes[String(step)] = note;
  return answer;
}
