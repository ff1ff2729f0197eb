/**
 * Exact typing of any character on X11.
 *
 * xdotool types a character the keyboard map lacks (ü on a US map, €) by mapping it to a spare
 * keycode, pressing that, and mapping the keycode back to nothing straight away. An application
 * looks the keysym up when it processes the key event, and a busy one does that after the map was
 * restored: the character is lost (seen here under load: "Mller €5 ß"). So before xdotool types,
 * the host maps every character the text needs onto spare keycodes itself and leaves them mapped;
 * xdotool then finds them in the map and never remaps anything while the application catches up.
 *
 * The map is changed with two core X11 requests (GetKeyboardMapping, ChangeKeyboardMapping) over
 * the host's own small X protocol client (x11-protocol.ts).
 */

export interface KeyboardMap {
  minKeycode: number;
  maxKeycode: number;
  keysymsPerKeycode: number;
  /** keysyms[(keycode - minKeycode) * keysymsPerKeycode + level] */
  keysyms: number[];
}

/** The keysym for a character: Latin-1 keysyms equal the code point; others are Unicode keysyms. */
export function keysymForChar(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return 0x01000000 + cp;
}

function keysymAt(map: KeyboardMap, keycode: number, level: number): number {
  return map.keysyms[(keycode - map.minKeycode) * map.keysymsPerKeycode + level] ?? 0;
}

/** Keycodes with no keysym at all, in ascending order. */
export function spareKeycodes(map: KeyboardMap): number[] {
  const spare: number[] = [];
  for (let keycode = map.minKeycode; keycode <= map.maxKeycode; keycode++) {
    let empty = true;
    for (let level = 0; level < map.keysymsPerKeycode; level++) {
      if (keysymAt(map, keycode, level) !== 0) empty = false;
    }
    if (empty) spare.push(keycode);
  }
  return spare;
}

/** Whether the map types `keysym` without AltGr or a remap: on the first or the shifted level. */
function typeable(map: KeyboardMap, keysym: number): boolean {
  for (let keycode = map.minKeycode; keycode <= map.maxKeycode; keycode++) {
    if (keysymAt(map, keycode, 0) === keysym || keysymAt(map, keycode, 1) === keysym) return true;
  }
  return false;
}

export interface KeymapChange {
  keycode: number;
  keysym: number;
}

/**
 * Which keysyms to put on which keycodes so that every character of `text` is in the map.
 * `ours` holds the keycodes this host mapped earlier (keycode → keysym), least recently used
 * first; free spare keycodes are taken before those are reused, and the last spare keycode stays
 * free for xdotool's own scratch use.
 */
export function planKeymap(
  map: KeyboardMap,
  text: string,
  ours: ReadonlyMap<number, number>,
): KeymapChange[] {
  const textKeysyms = new Set<number>();
  const needed: number[] = [];
  for (const ch of text) {
    if (ch === '\n' || ch === '\t') continue;
    const keysym = keysymForChar(ch);
    textKeysyms.add(keysym);
    if (!typeable(map, keysym) && !needed.includes(keysym)) needed.push(keysym);
  }
  if (needed.length === 0) return [];
  const free = spareKeycodes(map).slice(0, -1);
  // Ours still holding what we put there, and not needed by this text.
  const reusable = [...ours]
    .filter(([keycode, keysym]) => keysymAt(map, keycode, 0) === keysym && !textKeysyms.has(keysym))
    .map(([keycode]) => keycode);
  const candidates = [...free, ...reusable];
  return needed
    .slice(0, candidates.length)
    .map((keysym, i) => ({ keycode: candidates[i], keysym }));
}

/** Keycodes of `ours` that hold a keysym of `text`: to be marked as recently used. */
export function usedBy(
  map: KeyboardMap,
  text: string,
  ours: ReadonlyMap<number, number>,
): number[] {
  const keysyms = new Set([...text].map(keysymForChar));
  return [...ours]
    .filter(([keycode, keysym]) => keysymAt(map, keycode, 0) === keysym && keysyms.has(keysym))
    .map(([k]) => k);
}
