import { loadRules, roleKey, RulesError } from './rules';

describe('loadRules', () => {
  it('reads config/classification.json once and shares the default rules', () => {
    const a = loadRules();
    expect(loadRules()).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(a.unlabelledClicks).toBe('write');
    expect(a.ocrMinConfidence).toBe(60);
    expect(a.secretFields.list).toEqual(expect.arrayContaining(['Passwort', 'Kennwort', 'PIN']));
    expect([...a.commitKeys]).toEqual([
      'Enter',
      'F8',
      'F11',
      'Ctrl+S',
      'F5',
      'Delete',
      'Backspace',
    ]);
    expect(a.navigationKeys.has('Shift+Tab')).toBe(true);
  });

  it('adds an agent’s words to the defaults, never replacing them', () => {
    const r = loadRules({ commit_words: ['Fortfahren', 'go live'], unlabelled_clicks: 'read' });
    expect(r.commitWords).toEqual(
      expect.arrayContaining(['Save', 'Sichern', 'Weiter', 'Fortfahren', 'go live']),
    );
    expect(r.unlabelledClicks).toBe('read');
    expect(loadRules({ commit_words: [] }).commitWords).toEqual(loadRules().commitWords);
    expect(loadRules({ commit_words: null, unlabelled_clicks: null }).unlabelledClicks).toBe(
      'write',
    );
  });

  it.each([
    [{ commit_words: 'Save' }, 'commit_words must be a list of strings'],
    [{ commit_words: [3] }, 'commit_words must be a list of strings'],
    [
      { commit_words: ['***'] },
      'commit_words: “***” must have letters or digits and at most 64 characters',
    ],
    [{ commit_words: ['x'.repeat(65)] }, 'must have letters or digits and at most 64 characters'],
    [
      { commit_words: Array.from({ length: 201 }, (_, i) => `w${i}`) },
      'commit_words: at most 200 words',
    ],
    [{ unlabelled_clicks: 'hold' }, 'unlabelled_clicks must be "read" or "write"'],
  ])('refuses the agent rules %j', (agent, message) => {
    expect(() => loadRules(agent as never)).toThrow(RulesError);
    expect(() => loadRules(agent as never)).toThrow(message);
  });

  it('compares roles without case, punctuation or SAP’s Gui prefix', () => {
    expect(roleKey('GuiToolbar')).toBe('toolbar');
    expect(roleKey('tool_bar')).toBe('toolbar');
    expect(roleKey('Gui')).toBe('gui');
    expect(roleKey(undefined)).toBe('');
  });
});
