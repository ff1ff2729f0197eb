import { summaryInWords } from './browser/summary-words';

describe('summaryInWords', () => {
  it.each([
    [
      'steps[9] (step "check") waited 10 times for text /Order \\d+ saved/',
      "the script's step “check” waited 10 times for the text it expects; the screen never showed it",
    ],
    [
      'steps[2] waited 3 times for element button "Save"',
      'step 3 of the script waited 3 times for the button “Save”; the screen never showed it',
    ],
    [
      'steps[4] (step 5) did not see screen 9f2c and has patience 0',
      "the script's step “5” did not find the exact screen it expects on the screen, and may not wait",
    ],
    [
      'steps[1] (step "open") was refused by Warden\'s rules (a write), so the script stops there',
      "the script's step “open” was refused by Warden's rules (a write), so the script stops there",
    ],
    ['Order 4711 saved with the new date', 'Order 4711 saved with the new date'],
  ])('%s', (summary, words) => {
    expect(summaryInWords(summary)).toBe(words);
  });
});
