/**
 * How the sim's screens are built: widget by widget where SAP GUI puts them (Builder), and the
 * window chrome every screen shares (menu bar, system toolbar, command field).
 */
import type { SimLabels } from './sim-labels';
import type { SimState } from './sim-state';
import {
  BANDS,
  type Command,
  type Decoration,
  FIELD_HEIGHT,
  ICON_BUTTON_SIZE,
  type IconKind,
  SYSTEM_BUTTONS,
  textWidth,
  type Widget,
} from './sim-widgets';

export class Builder {
  readonly widgets: Widget[] = [];
  readonly decorations: Decoration[] = [];
  private appX = 8;

  constructor(readonly state: SimState) {}

  label(id: string, text: string, x: number, y: number): void {
    this.widgets.push({
      kind: 'text',
      id,
      role: 'label',
      name: text,
      rect: { x, y, width: textWidth(text), height: FIELD_HEIGHT },
    });
  }

  field(
    id: string,
    name: string,
    x: number,
    y: number,
    width: number,
    options: {
      editable?: boolean;
      password?: boolean;
      maxLength?: number;
      alignRight?: boolean;
    } = {},
  ): void {
    this.widgets.push({
      kind: 'field',
      id,
      name,
      rect: { x, y, width, height: FIELD_HEIGHT },
      editable: options.editable ?? true,
      password: options.password ?? false,
      maxLength: options.maxLength ?? 20,
      alignRight: options.alignRight,
    });
  }

  /** A label and its field on one line, the way SAP lays out a form. */
  labelled(
    id: string,
    name: string,
    x: number,
    y: number,
    fieldX: number,
    width: number,
    options = {},
  ): void {
    this.label(`lbl-${id}`, name, x, y);
    this.field(id, name, fieldX, y, width, options);
  }

  appButton(id: string, name: string, command: Command, icon?: IconKind): void {
    const width = textWidth(name) + (icon ? 44 : 24);
    this.widgets.push({
      kind: 'button',
      id,
      name,
      caption: name,
      icon,
      command,
      area: 'toolbar',
      rect: { x: this.appX, y: BANDS.appToolbar.y + 4, width, height: 24 },
    });
    this.appX += width + 6;
  }
}

export function chrome(b: Builder, labels: SimLabels, menus: string[]): void {
  let x = 8;
  menus.forEach((name, i) => {
    const width = textWidth(name) + 16;
    b.widgets.push({
      kind: 'text',
      id: `menu-${i}`,
      role: 'menu',
      name,
      rect: { x, y: BANDS.menubar.y, width, height: BANDS.menubar.height },
    });
    x += width + 2;
  });
  for (const button of SYSTEM_BUTTONS) {
    b.widgets.push({
      kind: 'button',
      id: button.id,
      name: labels[button.label] as string,
      tooltip: labels.tooltips[button.command],
      area: 'toolbar',
      icon: button.icon,
      command: button.command,
      rect: {
        x: button.x,
        y: BANDS.systemToolbar.y + 4,
        width: ICON_BUTTON_SIZE,
        height: ICON_BUTTON_SIZE,
      },
    });
  }
  b.widgets.push({
    kind: 'field',
    id: 'cmd',
    name: labels.commandField,
    rect: { x: 42, y: BANDS.systemToolbar.y + 7, width: 196, height: FIELD_HEIGHT },
    editable: true,
    password: false,
    maxLength: 40,
    dropdown: true,
  });
}
