/**
 * The outlines a windows screen host serves from SAP GUI Scripting (the fixtures the host's own
 * spec maps from SAP's object model, screen-host/test/fixtures/sapgui/*.outline.json), taken as
 * Warden takes a host's answer (host-answers.ts) and judged by Warden's own rules: that SAP GUI's
 * types, as the host maps them, classify as docs/rules.md says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outlineOf } from '../host-client/host-answers';
import { resolveTarget } from '../host-client/screen-host-target';
import type { OutlineElement, ScreenContext } from './action.types';
import { checkAction, needsOcr } from './check-action';
import { isCommandField, outlineTitle } from './label-at';
import { loadRules } from './rules';
import { stageEdit } from './staging';

const rules = loadRules();
const FIXTURES = join(__dirname, '../../../screen-host/test/fixtures/sapgui');
const target = resolveTarget({
  screen_url: 'https://sapgui-host.test:8443',
  screen_token_env: 'WARDEN_SAPGUI_FIXTURES_SPEC_UNSET',
});

/** The fixture's outline as GET /elements serves it, read by Warden's own answer check. */
function screen(name: string): ScreenContext & { outline: OutlineElement[] } {
  const file = JSON.parse(readFileSync(join(FIXTURES, `${name}.outline.json`), 'utf8')) as {
    screen: { width: number; height: number };
    elements: unknown[];
  };
  const body = Buffer.from(JSON.stringify(file.elements));
  const outline = outlineOf(
    target,
    { status: 200, headers: { 'content-type': 'application/json' }, body },
    'GET /elements',
  );
  return { ...file.screen, outline };
}

function element(s: { outline: OutlineElement[] }, tail: string): OutlineElement {
  const found = s.outline.filter((e) => e.id.endsWith(tail));
  expect(found).toHaveLength(1);
  return found[0];
}

function centre(e: OutlineElement): { x: number; y: number } {
  return {
    x: e.rect.x + Math.floor(e.rect.width / 2),
    y: e.rect.y + Math.floor(e.rect.height / 2),
  };
}

function click(s: ScreenContext & { outline: OutlineElement[] }, tail: string) {
  return checkAction({ action: 'click', ...centre(element(s, tail)) }, s, rules);
}

/** The screen with the focus moved to one field, as after a click on it. */
function focusedOn(s: ScreenContext & { outline: OutlineElement[] }, tail: string) {
  const at = element(s, tail);
  const outline = s.outline.map((e) => {
    const states = (e.states ?? []).filter((x) => x !== 'focused');
    const moved: OutlineElement = {
      ...e,
      focused: e === at,
      states: e === at ? [...states, 'focused'] : states,
    };
    return moved;
  });
  return { ...s, outline };
}

describe('SAP GUI Scripting outlines, judged by Warden’s rules', () => {
  it('VA02 initial: okcd is the command field, and typing into it is a write never staged', () => {
    const s = focusedOn(screen('va02-initial'), 'tbar[0]/okcd');
    expect(isCommandField(element(s, 'tbar[0]/okcd'))).toBe(true);
    expect(s.outline.filter((e) => isCommandField(e)).map((e) => e.id)).toEqual([
      'wnd[0]/tbar[0]/okcd',
    ]);
    const typing = checkAction({ action: 'type', text: 'VA03' }, s, rules);
    expect(typing.classification).toBe('write');
    expect(stageEdit(typing.action!, s, rules)).toEqual({
      notStaged: 'typing into the command field is never staged: a person decides',
    });
    // A click into it only focuses it.
    expect(click(s, 'tbar[0]/okcd').classification).toBe('read');
  });

  it('VA02 initial: the order number goes into a changeable field of the input area, so it is staged, its value before read from SAP', () => {
    // The host says what SAP GUI says of the field (Changeable, in the user area); that the number
    // only opens the order is Warden's to tell (the change list shows it as typed on an earlier
    // screen once Enter has taken it), as on the sim.
    const s = screen('va02-initial');
    const typing = checkAction({ action: 'type', text: '4712' }, s, rules);
    expect(typing.classification).toBe('write');
    expect(stageEdit(typing.action!, s, rules)).toEqual({
      edit: {
        field: {
          label: 'Order',
          id: 'wnd[0]/usr/ctxtVBAK-VBELN',
          rect: { x: 284, y: 214, width: 100, height: 22 },
          at: null,
        },
        before: '4711',
        text: '4712',
      },
    });
    expect(click(s, '/ctxtVBAK-VBELN')).toMatchObject({ classification: 'read' });
    expect(click(s, '/ctxtVBAK-VBELN').why).toContain(
      '“Order” (a text field in the screen outline)',
    );
  });

  it('VA02 overview: Save (tooltip "Save (Ctrl+S)") is a write, Back (F3) a read', () => {
    const s = screen('va02-overview');
    const save = click(s, 'tbar[0]/btn[11]');
    expect(save.classification).toBe('write');
    expect(save.why).toMatch(/Save/);
    const back = click(s, 'tbar[0]/btn[3]');
    expect(back.classification).toBe('read');
    // An icon button: unnamed, its tooltip "Back (F3)" its label (the why does not quote it).
    expect(back.why).toMatch(/its labels name only navigation/);
    // Enter, described "Enter (Enter)", is held like the Enter key.
    expect(click(s, 'tbar[0]/btn[0]').classification).toBe('write');
  });

  it('VA02 overview: the Req. Deliv. Date typed is staged with its value, an output field is not', () => {
    const s = screen('va02-overview');
    expect(element(s, '/ctxtRV45A-KETDAT').states).toContain('modified');
    const typing = checkAction({ action: 'type', text: '30.05.2026' }, s, rules);
    expect(stageEdit(typing.action!, s, rules)).toMatchObject({
      edit: { field: { label: 'Req. Deliv.Date' }, before: '30.04.2026', text: '30.05.2026' },
    });
    const netValue = focusedOn(s, '/txtVBAK-NETWR');
    expect(stageEdit({ action: 'type', text: '1' }, netValue, rules)).toEqual({
      notStaged: 'the screen host does not mark the field changeable: a person decides',
    });
  });

  it('VA02 overview: a checkbox is an edit, staged as it stands; a tab and a table cell are reads', () => {
    const s = screen('va02-overview');
    const box = click(s, '/chkVBAK-AUTLF');
    expect(box).toMatchObject({ classification: 'write', edit: true });
    expect(stageEdit(box.action!, s, rules, true)).toMatchObject({
      edit: { field: { label: 'Complete dlv.' }, before: 'not checked', click: true },
    });
    expect(click(s, 'tabpT\\02').classification).toBe('read');
    expect(click(s, '/ctxtRV45A-MABNR[1,0]').classification).toBe('read');
  });

  it('the popup: Yes is a write, No a write, Cancel a read; its title is the screen’s', () => {
    const s = screen('save-popup');
    expect(click(s, 'btnSPOP-OPTION1')).toMatchObject({ classification: 'write' });
    expect(click(s, 'btnSPOP-OPTION1').why).toMatch(/Yes/);
    expect(click(s, 'btnSPOP-OPTION2').classification).toBe('write');
    expect(click(s, 'btnSPOP-OPTION_CAN').classification).toBe('read');
    expect(outlineTitle(s.outline)).toBe('Save changes?');
    // A click on the dialog where it holds nothing has no outline label: the pixels are read.
    const dialog = element(s, 'wnd[1]');
    expect(
      needsOcr({ action: 'click', x: dialog.rect.x + 5, y: dialog.rect.y + 5 }, s, rules),
    ).toBe(true);
  });

  it('the status bar E message is a status element Warden keeps, with its type', () => {
    const s = screen('status-error');
    expect(element(s, 'wnd[0]/sbar')).toMatchObject({
      role: 'status',
      name: 'SD document 4799 is not in the database or has been archived',
      message_type: 'E',
      area: 'status',
    });
    // A container: a click on it has no outline label.
    expect(needsOcr({ action: 'click', ...centre(element(s, 'wnd[0]/sbar')) }, s, rules)).toBe(
      true,
    );
  });

  it('the logon screen: the password field has no value, and typing into it is refused', () => {
    const s = screen('logon');
    const password = element(s, '/pwdRSYST-BCODE');
    expect(password.password).toBe(true);
    expect(password).not.toHaveProperty('value');
    expect(checkAction({ action: 'type', text: 'Initial-Pass-1' }, s, rules).classification).toBe(
      'invalid',
    );
  });

  it('the table control: every cell of a display transaction is a read, and never staged', () => {
    const s = screen('table-control');
    const cell = focusedOn(s, '/txtRV45A-KWMENG[2,2]');
    expect(click(cell, '/txtRV45A-KWMENG[2,2]').classification).toBe('read');
    expect(stageEdit({ action: 'type', text: '9' }, cell, rules)).toEqual({
      notStaged: 'the screen host does not mark the field changeable: a person decides',
    });
  });
});
