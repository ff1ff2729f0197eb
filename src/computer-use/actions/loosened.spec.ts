/**
 * Which weakening made a read (docs/security.md): the send checks it is still in force, so the verdict
 * names it, and only when the default rules alone would have made a write.
 */
import type { OutlineElement, ScreenContext } from './action.types';
import { checkAction } from './check-action';
import { loadRules } from './rules';

const INITIAL = 'Change Sales Order: Initial Screen';
const OUTLINE: OutlineElement[] = [
  { id: 'title', role: 'title', name: INITIAL, rect: { x: 16, y: 90, width: 300, height: 22 } },
  {
    id: 'cmd',
    role: 'textbox',
    name: 'Command field',
    rect: { x: 42, y: 55, width: 196, height: 22 },
    focused: true,
    area: 'command_field',
  },
  {
    id: 'display',
    role: 'button',
    name: 'Display',
    rect: { x: 400, y: 120, width: 80, height: 24 },
  },
  { id: 'pane', role: 'pane', name: 'work area', rect: { x: 0, y: 150, width: 1280, height: 600 } },
];
const SCREEN: ScreenContext = { width: 1280, height: 800, outline: OUTLINE };
const ENTER_READ = { title: `^${INITIAL}$`, keys: { Enter: 'read' } };
const DISPLAY_READ = { title: `^${INITIAL}$`, labels: { '^Display$': 'read' } };
const CODES = { command_field: { transactions: ['VA02'] } };

describe('the weakening that made a read', () => {
  it('names the screen rule that made a write a read, 1-based', () => {
    const rules = loadRules({ screen_rules: [CODES, ENTER_READ] });
    const enter = checkAction({ action: 'key', key: 'Enter' }, SCREEN, rules);
    expect(enter).toMatchObject({ classification: 'read', loosenedBy: { screenRule: 2 } });
    const code = checkAction({ action: 'type', text: '/nVA02' }, SCREEN, rules);
    expect(code).toMatchObject({ classification: 'read', loosenedBy: { screenRule: 1 } });
  });

  it('names nothing where the default rules made a read already, or a write stays one', () => {
    const rules = loadRules({ screen_rules: [DISPLAY_READ] });
    const display = checkAction({ action: 'click', x: 440, y: 130 }, SCREEN, rules);
    expect(display.classification).toBe('read');
    expect(display).not.toHaveProperty('loosenedBy');
    const enter = checkAction({ action: 'key', key: 'Enter' }, SCREEN, rules);
    expect(enter.classification).toBe('write');
    expect(enter).not.toHaveProperty('loosenedBy');
    expect(checkAction({ action: 'key', key: 'Tab' }, SCREEN, loadRules())).not.toHaveProperty(
      'loosenedBy',
    );
  });

  it('names unlabelled_clicks "read" for a click nothing could read a label for', () => {
    const rules = loadRules({ unlabelled_clicks: 'read' });
    const blank = checkAction({ action: 'click', x: 900, y: 600 }, SCREEN, rules, {
      unreadable: 'no_text',
    });
    expect(blank).toMatchObject({
      classification: 'read',
      loosenedBy: { unlabelledClicks: 'read' },
    });
  });

  it('names navigation_words for a button only the agent’s own word makes a read', () => {
    const outline: OutlineElement[] = [
      ...OUTLINE,
      {
        id: 'more',
        role: 'button',
        name: 'Weiterblättern',
        rect: { x: 600, y: 120, width: 80, height: 24 },
      },
    ];
    const click = { action: 'click', x: 640, y: 130 };
    const screen = { ...SCREEN, outline };
    const own = checkAction(click, screen, loadRules({ navigation_words: ['Weiterblättern'] }));
    expect(own).toMatchObject({ classification: 'read', loosenedBy: { navigationWords: true } });
    expect(checkAction(click, screen, loadRules())).toMatchObject({ classification: 'write' });
    // A word the defaults hold already loosens nothing, even when the agent lists it too.
    const back = checkAction(
      { action: 'click', x: 440, y: 130 },
      SCREEN,
      loadRules({ navigation_words: ['Display'] }),
    );
    expect(back.classification).toBe('read');
    expect(back).not.toHaveProperty('loosenedBy');
  });

  it('marks a click that changes a value an edit, unless a screen rule decided it', () => {
    const box: OutlineElement = {
      id: 'chk',
      role: 'check box',
      name: 'Delivery block',
      rect: { x: 600, y: 200, width: 20, height: 20 },
    };
    const screen = { ...SCREEN, outline: [...OUTLINE, box] };
    const click = { action: 'click', x: 605, y: 205 };
    expect(checkAction(click, screen, loadRules())).toMatchObject({
      classification: 'write',
      edit: true,
    });
    const ruled = loadRules({
      screen_rules: [{ title: `^${INITIAL}$`, labels: { '^Delivery block$': 'write' } }],
    });
    const byRule = checkAction(click, screen, ruled);
    expect(byRule.classification).toBe('write');
    expect(byRule).not.toHaveProperty('edit');
    expect(checkAction({ action: 'type', text: 'x' }, screen, loadRules())).not.toHaveProperty(
      'edit',
    );
  });
});
