import { excerpt, isRecord, type Move, str, WARDEN_ACTIONS_NOTE } from '../provider';

/**
 * One computer action of Anthropic's (a toolset member by its name, or the single tool's `action`)
 * in Warden's vocabulary, in the model's coordinates, or why not (docs/models.md, "How actions
 * map"). The two share their inputs' fields: `coordinate`, `text`, `scroll_direction`,
 * `scroll_amount`, `duration`, and the toolset's `repeat` and `region`. Pure.
 */
export function memberMove(name: string, input: unknown): Move {
  const i = isRecord(input) ? input : {};
  const point = Array.isArray(i.coordinate) ? i.coordinate : null;
  const xy =
    point && point.length === 2 ? { x: point[0] as unknown, y: point[1] as unknown } : null;
  const unsupported = (why: string): Move => ({
    kind: 'refused',
    answer: { action: name || 'unknown', ...(xy ?? {}) },
    note: why,
  });
  const held = i.text !== undefined && i.text !== null && i.text !== '';
  switch (name) {
    case 'left_click':
    case 'double_click': {
      if (!xy) {
        return unsupported(`${name} needs a coordinate [x, y]: Warden clicks only where you say.`);
      }
      if (held)
        return unsupported('Holding keys while clicking is not supported. Click without them.');
      return {
        kind: 'action',
        action: { action: name === 'left_click' ? 'click' : 'double_click', ...xy },
      };
    }
    case 'type':
      return { kind: 'action', action: { action: 'type', text: i.text } };
    case 'key': {
      if (i.repeat !== undefined && i.repeat !== null && i.repeat !== 1) {
        // Each press is judged on its own: a key pressed twice is two actions.
        return unsupported('Press a key once per action; to press it again, answer it again.');
      }
      return { kind: 'action', action: { action: 'key', key: i.text } };
    }
    case 'scroll': {
      if (!xy) return unsupported('scroll needs a coordinate [x, y] to scroll at.');
      if (held) return unsupported('Holding keys while scrolling is not supported.');
      return {
        kind: 'action',
        action: {
          action: 'scroll',
          ...xy,
          direction: i.scroll_direction,
          amount: i.scroll_amount ?? 3,
        },
      };
    }
    case 'wait':
      return { kind: 'action', action: { action: 'wait', seconds: i.duration ?? 1 } };
    case 'screenshot':
      return { kind: 'look' };
    case 'zoom': {
      const region = Array.isArray(i.region) ? i.region : null;
      if (
        !region ||
        region.length !== 4 ||
        !region.every((v) => Number.isSafeInteger(v)) ||
        (region[0] as number) >= (region[2] as number) ||
        (region[1] as number) >= (region[3] as number)
      ) {
        return unsupported('zoom needs a region [x0, y0, x1, y1] with x0 < x1 and y0 < y1.');
      }
      return { kind: 'zoom', region: region as number[] };
    }
    default:
      return unsupported(
        `Warden has no "${excerpt(str(name) ?? '', 40)}". ${WARDEN_ACTIONS_NOTE}.`,
      );
  }
}
