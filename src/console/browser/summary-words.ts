/**
 * A run's summary (or a planner's give-up reason) as a person reads it. A scripted planner names
 * its step and what it waited for as a script's author wrote them (`steps[9] (step "check")
 * waited 10 times for text /Order \d+ saved/`); the console says it as a sentence and leaves the
 * exact words to the page's details. Any other summary is the planner's own sentence, kept. A pure
 * function of its input.
 */

const STEP = /^steps\[(\d+)\](?: \(step ("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)\))? ([\s\S]*)$/;
const ELEMENT = /^element (\S+) ("(?:[^"\\]|\\.)*")$/;

/** A JSON string as its text, or the input where it is not one. */
function unquoted(json: string): string {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' || typeof value === 'number' ? String(value) : json;
  } catch {
    return json;
  }
}

/** What a script's step waited for: `the text it expects`, `the button “Save”`. */
function expected(what: string): string {
  if (what.startsWith('text /')) return 'the text it expects';
  if (what.startsWith('screen ')) return 'the exact screen it expects';
  const element = ELEMENT.exec(what);
  if (element) return `the ${element[1]} “${unquoted(element[2])}”`;
  return what;
}

export function summaryInWords(summary: string): string {
  const found = STEP.exec(summary);
  if (!found) return summary;
  const [, index, label, rest] = found;
  const step = label
    ? `the script's step “${unquoted(label)}”`
    : `step ${Number(index) + 1} of the script`;
  const waited = /^waited (\d+) times for ([\s\S]*)$/.exec(rest);
  if (waited) {
    return `${step} waited ${waited[1]} times for ${expected(waited[2])}; the screen never showed it`;
  }
  const unseen = /^did not see ([\s\S]*) and has patience 0$/.exec(rest);
  if (unseen) return `${step} did not find ${expected(unseen[1])} on the screen, and may not wait`;
  if (rest.startsWith("needs the screen host's element outline")) {
    return `${step} needs the screen host's list of what is on the screen, and the host gave none`;
  }
  return `${step} ${rest}`;
}
