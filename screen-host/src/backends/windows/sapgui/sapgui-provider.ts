/**
 * The SAP GUI outline provider of the windows backend: asks the PowerShell helper (the COM part,
 * sapgui-script.ts) for the active session, maps what it sends (sapgui-outline.ts), and keeps
 * what GET /health says of it. The helper is reached through `ask`, so that all of this runs
 * anywhere; only the helper itself needs Windows and SAP GUI.
 */
import type { OutlineElement } from '../../backend';
import { sapGuiOutline, sessionFacts, type SapSessionFacts } from './sapgui-outline';
import {
  readSnapshot,
  SAPGUI_REFUSALS,
  type SapGuiRefusal,
  type SapGuiRefusalCode,
} from './sapgui-snapshot';

/** How the host reads SAP GUI: GetObjectTree where the release has it, always element by element, or not at all. */
export type SapGuiMode = 'tree' | 'walk' | 'off';

/** What the helper is asked: `probe` (is scripting usable, which session) or a whole snapshot. */
export type SapGuiRead = 'probe' | 'tree' | 'walk';

/** The most bytes of tree JSON one snapshot may bring (10,000 elements of 1.6 KB). */
export const MAX_TREE_BYTES = 16 * 1024 * 1024;

/** What GET /health says of SAP GUI Scripting (`sap_gui`), docs/screen-host.md. */
export interface SapGuiHealth {
  state: 'ok' | SapGuiRefusalCode;
  detail: string | null;
  /** sapgui/user_scripting_set_readonly in force; null: the session did not say. */
  read_only: boolean | null;
  session: Omit<SapSessionFacts, 'readOnly' | 'recordingDisabled'> | null;
  /** What the last GET /elements served, or why it served nothing; null before the first. */
  outline:
    | { served: number; source: 'object_tree' | 'walk'; transaction: string | null }
    | SapGuiRefusal
    | null;
}

const REFUSALS: ReadonlySet<string> = new Set(SAPGUI_REFUSALS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The helper's answer with each window's tree decoded from base64 JSON (`trees_b64` → `trees`),
 * for readSnapshot to check; a refusal for what cannot be decoded or is too large.
 */
export function fromWire(value: unknown): unknown {
  if (!isObject(value) || value.refused !== undefined) return value;
  const encoded = value.trees_b64;
  if (!Array.isArray(encoded) || !encoded.every((t) => typeof t === 'string')) {
    return { refused: 'unreadable', detail: 'the snapshot carries no trees' };
  }
  let bytes = 0;
  const trees: unknown[] = [];
  for (const text of encoded) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
      return { refused: 'unreadable', detail: 'a tree is not base64' };
    }
    const json = Buffer.from(text, 'base64');
    bytes += json.length;
    if (bytes > MAX_TREE_BYTES) {
      return { refused: 'too_large', detail: `the trees are larger than ${MAX_TREE_BYTES} bytes` };
    }
    try {
      trees.push(JSON.parse(json.toString('utf8')));
    } catch {
      return { refused: 'unreadable', detail: 'a tree SAP GUI gave is not JSON' };
    }
  }
  const { trees_b64: _encoded, ...rest } = value;
  return { ...rest, trees };
}

/** The probe's answer: usable (and which session), or why not. */
export function readProbe(
  value: unknown,
): Pick<SapGuiHealth, 'state' | 'detail' | 'read_only' | 'session'> {
  if (isObject(value) && value.state === 'ok' && isObject(value.session)) {
    const strings: Record<string, string> = {};
    for (const [k, v] of Object.entries(value.session)) {
      if (typeof v === 'string' || typeof v === 'boolean') strings[k] = String(v);
    }
    const { readOnly, recordingDisabled: _r, ...session } = sessionFacts(strings);
    return { state: 'ok', detail: null, read_only: readOnly, session };
  }
  if (isObject(value) && typeof value.refused === 'string') {
    const state = REFUSALS.has(value.refused) ? (value.refused as SapGuiRefusalCode) : 'error';
    const detail = typeof value.detail === 'string' ? value.detail.slice(0, 300) : null;
    return { state, detail, read_only: null, session: null };
  }
  return {
    state: 'unreadable',
    detail: 'the helper answered no probe',
    read_only: null,
    session: null,
  };
}

export class SapGuiProvider {
  private last: SapGuiHealth['outline'] = null;

  constructor(
    private readonly mode: SapGuiMode,
    private readonly ask: (read: SapGuiRead) => Promise<unknown>,
  ) {}

  get enabled(): boolean {
    return this.mode !== 'off';
  }

  /**
   * The outline of the active session on a screen of `size`, or null (Warden then reads the
   * pixels): SAP GUI absent, scripting refused, the helper failed, or the outline refused.
   */
  async outline(size: { width: number; height: number }): Promise<OutlineElement[] | null> {
    if (this.mode === 'off') return null;
    let answer: unknown;
    try {
      answer = await this.ask(this.mode);
    } catch (err) {
      this.last = {
        refused: 'error',
        detail: err instanceof Error ? err.message.slice(0, 300) : String(err),
      };
      return null;
    }
    const snapshot = readSnapshot(fromWire(answer));
    const mapped = 'refused' in snapshot ? snapshot : sapGuiOutline(snapshot, size);
    if ('refused' in mapped) {
      this.last = mapped;
      return null;
    }
    this.last = {
      served: mapped.elements.length,
      source: mapped.source,
      transaction: mapped.session.transaction,
    };
    return mapped.elements;
  }

  /** What GET /health reports: a fresh probe, and what the last outline was. Never throws. */
  async health(): Promise<SapGuiHealth> {
    let probe: ReturnType<typeof readProbe>;
    try {
      probe = readProbe(await this.ask('probe'));
    } catch (err) {
      const detail = err instanceof Error ? err.message.slice(0, 300) : String(err);
      probe = { state: 'error', detail, read_only: null, session: null };
    }
    return { ...probe, outline: this.last };
  }
}
