/**
 * The sim screen's building blocks: its size and bands, fonts, the widgets and decorations a
 * layout is made of, and small geometry. Shared by the screens (sim-screens.ts), the layout and
 * outline (sim-layout.ts), the renderer and the app.
 */
import type { Rect } from '../backend';
import { font, measure } from './sim-fonts';
import type { SimLabels } from './sim-labels';

export const SCREEN_WIDTH = 1280;
export const SCREEN_HEIGHT = 800;

export const BANDS = {
  caption: { y: 0, height: 24 },
  menubar: { y: 24, height: 24 },
  systemToolbar: { y: 48, height: 36 },
  title: { y: 84, height: 34 },
  appToolbar: { y: 118, height: 32 },
  work: { y: 150, height: 622 },
  status: { y: 772, height: 28 },
} as const;

export const TEXT_FONT = font(13);
export const TITLE_FONT = font(16, true);
export const FIELD_HEIGHT = 22;
export const TABLE_ROW_HEIGHT = 24;
export const TABLE_VISIBLE_ROWS = 12;

export type IconKind =
  'enter' | 'save' | 'back' | 'exit' | 'cancel' | 'print' | 'find' | 'help' | 'check' | 'post';

export type Command =
  | 'enter'
  | 'save'
  | 'back'
  | 'exit'
  | 'cancel'
  | 'print'
  | 'find'
  | 'help'
  | 'continue'
  | 'simulate'
  | 'post'
  | 'confirm'
  | `tx:${string}`
  /** A button of the popup, by its place (0 commits). */
  | `popup:${number}`;

export interface FieldWidget {
  kind: 'field';
  id: string;
  name: string;
  rect: Rect;
  editable: boolean;
  password: boolean;
  maxLength: number;
  /** Shown right-aligned (amounts). */
  alignRight?: boolean;
  /** The command field has a history drop-down arrow. */
  dropdown?: boolean;
}

export interface ButtonWidget {
  kind: 'button';
  id: string;
  name: string;
  rect: Rect;
  command: Command;
  icon?: IconKind;
  /** Text buttons show their name; icon buttons in the system toolbar show only the icon. */
  caption?: string;
  /** The tooltip (the outline's `description`). */
  tooltip?: string;
  /** Where SAP GUI puts it: a toolbar, or a dialog's buttons. */
  area?: 'toolbar' | 'dialog';
}

export interface TextWidget {
  kind: 'text';
  id: string;
  /** `menu`: a menu bar entry, which opens a menu. */
  role: 'label' | 'title' | 'menu' | 'status' | 'list' | 'listitem';
  name: string;
  rect: Rect;
  /** How the renderer draws it; the outline does not need to know. */
  style?: 'folder' | 'transaction' | 'header' | 'row' | 'caption';
  selected?: boolean;
  level?: number;
  command?: Command;
  cells?: { text: string; x: number; width: number; alignRight?: boolean }[];
}

export type Widget = FieldWidget | ButtonWidget | TextWidget;

/** Drawn but not part of the outline: frames and panels. */
export type Decoration =
  | { kind: 'group'; title: string; rect: Rect }
  | { kind: 'panel'; rect: Rect }
  | { kind: 'dialog'; title: string; rect: Rect }
  | { kind: 'scrollbar'; rect: Rect; first: number; visible: number; total: number }
  | { kind: 'light'; x: number; y: number; color: 'red' | 'green' }
  | { kind: 'logo'; rect: Rect; text: string };

/** A modal confirm dialog over the screen, drawn last and the only thing input reaches. */
export interface PopupLayout {
  rect: Rect;
  title: string;
  message: string;
  /** The message as drawn, wrapped to the dialog's width. */
  lines: { text: string; rect: Rect }[];
  buttons: ButtonWidget[];
}

export interface Layout {
  title: string;
  widgets: Widget[];
  decorations: Decoration[];
  popup?: PopupLayout;
}

export interface MenuRow {
  level: number;
  name: keyof SimLabels;
  transaction?: string;
}

export const MENU_ROWS: MenuRow[] = [
  { level: 0, name: 'favorites' },
  { level: 0, name: 'sapMenu' },
  { level: 1, name: 'logistics' },
  { level: 2, name: 'salesDistribution' },
  { level: 3, name: 'sales' },
  { level: 4, name: 'orderFolder' },
  { level: 5, name: 'txVA02', transaction: 'VA02' },
  { level: 5, name: 'txVA03', transaction: 'VA03' },
  { level: 1, name: 'accounting' },
  { level: 2, name: 'generalLedger' },
  { level: 3, name: 'txFB50', transaction: 'FB50' },
  { level: 1, name: 'systemFolder' },
  { level: 2, name: 'txPWD', transaction: 'PWD' },
];

export const SYSTEM_BUTTONS: {
  id: string;
  icon: IconKind;
  command: Command;
  label: keyof SimLabels;
  x: number;
}[] = [
  { id: 'btn-enter', icon: 'enter', command: 'enter', label: 'enter', x: 8 },
  { id: 'btn-save', icon: 'save', command: 'save', label: 'save', x: 252 },
  { id: 'btn-back', icon: 'back', command: 'back', label: 'back', x: 296 },
  { id: 'btn-exit', icon: 'exit', command: 'exit', label: 'exit', x: 328 },
  { id: 'btn-cancel', icon: 'cancel', command: 'cancel', label: 'cancel', x: 360 },
  { id: 'btn-print', icon: 'print', command: 'print', label: 'print', x: 404 },
  { id: 'btn-find', icon: 'find', command: 'find', label: 'find', x: 436 },
  { id: 'btn-help', icon: 'help', command: 'help', label: 'help', x: 480 },
];

export const ICON_BUTTON_SIZE = 28;

export function textWidth(text: string, cssFont = TEXT_FONT): number {
  return Math.ceil(measure(text, cssFont));
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

export function contains(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
}
