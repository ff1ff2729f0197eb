import { findCommitWord, fold, indexCommitWords, words } from './commit-words';
import { loadRules } from './rules';

const rules = loadRules();
const find = (label: string) => findCommitWord(label, rules.commitIndex);

describe('committing verbs', () => {
  it('holds at least the verbs the issue names', () => {
    const required =
      'Save Post Submit Delete Approve Release Book Pay Sichern Buchen Send Confirm Execute Create Remove Transfer Order Speichern Löschen Freigeben Genehmigen Senden Ausführen Anlegen Bestätigen Enregistrer Valider Supprimer Envoyer Guardar Enviar Eliminar Pagar'.split(
        ' ',
      );
    for (const w of required) expect(find(w)).not.toBeNull();
  });

  it.each([
    ['SAVE', 'Save'],
    ['SaVe', 'Save'],
    ['SAVe', 'Save'],
    ['Save (Ctrl+S)', 'Save'],
    ['Sichern', 'Sichern'],
    ['sichern', 'Sichern'],
    ['Löschen', 'Löschen'],
    ['Loschen', 'Löschen'],
    ['LOESCHEN', 'Löschen'],
    ['Ausfuehren', 'Ausführen'],
    ['exécuter', 'Exécuter'],
    ['Executer', 'Exécuter'],
    ['&Save', 'Save'],
    ['save_button', 'Save'],
    ['btnSave', 'Save'],
    ['Sa\u200bve', 'Save'],
    ['Sa\u00adve', 'Save'],
    ['Document: Post?', 'Post'],
    ['ＳＡＶＥ', 'Save'],
    ['Sí', 'Sí'],
  ])('%j contains %j', (label, verb) => {
    expect(find(label)).toBe(verb);
  });

  it.each([
    'Posting Date',
    'Saved',
    'Saves',
    'Autosave',
    'Undelete',
    'Display',
    'Bookmark',
    'Poster',
    'Reordering',
    'Payment terms',
    '',
    '   ',
    '12345',
  ])('%j contains none', (label) => {
    expect(find(label)).toBeNull();
  });

  it('matches phrases word by word', () => {
    const index = indexCommitWords(['Go live', 'Buchen']);
    expect(findCommitWord('Go Live now', index)).toBe('Go live');
    expect(findCommitWord('Go', index)).toBeNull();
    expect(findCommitWord('live go', index)).toBeNull();
    expect(findCommitWord('go-live', index)).toBe('Go live');
  });

  it('folds case, accents and written-out umlauts alike', () => {
    expect(fold('Bestätigen')).toBe(fold('BESTAETIGEN'));
    expect(fold('Straße')).toBe('strasse');
    expect(words('Save (Ctrl+S)')).toEqual(['save', 'ctrl', 's']);
  });
});
