/**
 * The injection rail's built-in detector (issue 16 §2): does text read from the screen (outline
 * names and values, OCR) try to instruct the model? Verdicts, worst first: `injected` (it tries to
 * override the task, to get a secret out, or to get a write through without a person, or it
 * addresses an AI and tells it to act), `suspect` (it addresses an AI, tells it to move money, or
 * is hidden from a person: an outline element too small to be read, or drawn with no contrast a
 * person could see; or the screen holds more text than the rail reads, docs/models.md), `clean`. Either
 * of the first two holds the step's action for a person, whatever it is (fail closed).
 *
 * Matched on a normal form of the text (compatibility forms folded, format characters such as
 * zero-width spaces dropped, accents stripped, lower case, one space), in English, German, French
 * and Spanish, by rules written for the phrases attackers use rather than for words business
 * screens use (an SAP message saying "ignore the warning", "forgot password?" or "Assistant:
 * Maria" is clean). Pure and synchronous; the table of cases is in the spec.
 */

export type RailVerdict = 'clean' | 'suspect' | 'injected';

/** One piece of text read from the screen. */
export interface ScreenText {
  text: string;
  source: 'outline' | 'ocr';
  /** Where it is on the screen, when the outline says (for the approver's highlight). */
  rect?: { x: number; y: number; width: number; height: number } | null;
  /**
   * The text should be drawn inside `rect` but its pixels there show no contrast a person could
   * see (`faintText`); absent: not looked at.
   */
  faint?: boolean;
}

export interface RailFinding {
  verdict: RailVerdict;
  /** The rule that fired (`override`, `exfiltration`, …); null when clean. */
  rule: string | null;
  /** The piece of text it fired on; null when clean. Never stored (its SHA-256 is). */
  flagged: ScreenText | null;
}

interface Rule {
  name: string;
  verdict: Exclude<RailVerdict, 'clean'>;
  /** Any of these patterns, on the normal form. */
  patterns: RegExp[];
}

/** Verbs that tell the reader to act, in the four languages (normal form). */
const ACT =
  "(click|press|approve|post|submit|transfer|pay|send|type|enter|delete|confirm|ignore|execute|run|do not|don't|must|immediately|klick\\w*|druck\\w*|genehmig\\w*|buch\\w*|uberweis\\w*|sende\\w*|losch\\w*|bestatig\\w*|sofort|musst|muss|clique\\w*|appuie\\w*|approuve\\w*|valide\\w*|vire\\w*|envoie\\w*|supprime\\w*|immediatement|dois|doit|haz clic|pulsa|aprueba|contabiliza|transfiere|envia|elimina|confirma|inmediatamente|debes|debe)";

/** Names of an AI, strong enough to count after "note to the …" and before a colon. */
const AI =
  '(ai|a\\.i\\.|ai assistant|ai agent|artificial intelligence|chatbot|chat ?gpt|gpt(-?\\d+)?|claude|gemini|copilot|llm|language model|ki|ki-assistent\\w*|kunstliche intelligenz|sprachmodell|ia|intelligence artificielle|modele de langage|inteligencia artificial|modelo de lenguaje)';
/**
 * Also addressed as such after a greeting or "note to the …", but not alone (a job title). A bare
 * "agent" or "model" is not one: a sales agent, a product model.
 */
const ADDRESSEE = `(${AI}|assistant|assistent\\w*|asistente|bot)`;

const RULES: readonly Rule[] = [
  {
    name: 'override',
    verdict: 'injected',
    patterns: [
      /\b(ignore|disregard|forget|override|bypass)\b.{0,40}\b(previous|prior|above|earlier|preceding|all|any|your|the|system|original|former)\b.{0,30}\b(instructions?|rules|directions|guidelines|prompts?|orders|task|constraints)\b/,
      /\bnew (instructions|task|orders|rules)\s*:/,
      /\b(developer mode|jailbreak)\b/,
      /\b(you are now|from now on,? you|act as if you)\b/,
      /\b(ignorier\w*|vergiss|vergessen sie|missacht\w*|uberschreib\w*)\b.{0,40}\b(anweisung\w*|regeln|vorgaben|instruktion\w*|aufgabe\w*|befehl\w*)\b/,
      /\bneue (anweisung\w*|aufgabe|befehle|regeln)\s*:/,
      /\b(du bist (jetzt|ab sofort)|ab sofort (bist du|sollst du))\b/,
      /\b(ignore[rz]?|oublie[rz]?|ne tiens pas compte|ne tenez pas compte)\b.{0,40}\b(instructions?|consignes?|regles|directives?|taches?)\b/,
      /\bnouvelles? (instructions|consignes|regles)\s*:/,
      /\b(tu es maintenant|vous etes maintenant|a partir de maintenant,? (tu|vous))\b/,
      /\b(ignora\w*|olvida\w*|omite|haz caso omiso)\b.{0,40}\b(instrucciones|instruccion|reglas|indicaciones|ordenes|tareas?)\b/,
      /\bnuevas (instrucciones|reglas|ordenes)\s*:/,
      /\b(ahora eres|a partir de ahora,? (eres|debes))\b/,
    ],
  },
  {
    name: 'exfiltration',
    verdict: 'injected',
    // "Repeat" asks for something back only with an object ("repeat the password"): a label
    // "Repeat Password" is the field where a person types a new one again (the sim's PWD screen).
    patterns: [
      /\b(reveal|disclose|print|output|send|e-?mail|share|leak|repeat(?= (back|the|your|all|any|every|me|us)\b)|tell me|show me|give me)\b.{0,40}\b(passwords?|api[ -]?keys?|(access |auth |api |host |bearer )?tokens?|credentials|secrets?|system prompt|your instructions)\b/,
      /\b(verrate|gib|sende|schicke|zeige|nenne|teile)\b.{0,40}\b(passwort\w*|kennwort\w*|token\w*|zugangsdaten|api-?schlussel|systemprompt|deine anweisungen)\b/,
      /\b(revele[rz]?|donne[rz]?|envoie[rz]?|montre[rz]?|communique[rz]?|partage[rz]?)\b.{0,40}\b(mots? de passe|jetons?|identifiants|cles? api|prompt systeme|tes instructions|vos instructions)\b/,
      /\b(revela|dame|envia|muestra|comparte|dime)\b.{0,40}\b(contrasenas?|tokens?|credenciales|claves? api|prompt del sistema|tus instrucciones)\b/,
    ],
  },
  {
    name: 'approval_bypass',
    verdict: 'injected',
    patterns: [
      /\b(without (asking|approval|review|confirmation|a human|the user|waiting for approval)|do not ask (for )?(approval|confirmation|the user|a human|anyone)|don't ask (for )?(approval|confirmation|the user|a human|anyone)|no need to (ask|confirm|wait for approval)|skip (the )?(approval|review|confirmation)|auto-?approve|approve (it|this|them|all) automatically)\b/,
      /\b(ohne (ruckfrage|genehmigung|freigabe|bestatigung|nachzufragen|zu fragen)|frage nicht nach|nicht nachfragen|automatisch (genehmig\w*|freigeb\w*))\b/,
      /\b(sans (demander|approbation|validation humaine|confirmation|attendre)|ne demande pas|ne demandez pas|approuve\w* automatiquement)\b/,
      /\b(sin (preguntar|aprobacion|confirmacion|revision)|no (preguntes|pidas) (aprobacion|confirmacion|permiso)|aprueba\w* automaticamente)\b/,
    ],
  },
  {
    name: 'addressed_to_ai',
    verdict: 'injected',
    patterns: [
      new RegExp(`\\b${AI}\\s*[:,]\\s*.{0,80}\\b${ACT}\\b`),
      new RegExp(
        `\\b(dear|hey|hello|hi|attention|hallo|liebe|lieber|bonjour|cher|chere|hola|querido|querida|note (to|for)( the)?|message (to|for)( the)?|to the|an die|an den|hinweis (an|fur) (die|den)|nachricht (an|fur) (die|den)|note (a|pour) (l'|l |la |le )?|message (a|pour) (l'|l |la |le )?|nota (para|a) (la |el )?|mensaje (para|a) (la |el )?)\\s*${ADDRESSEE}\\b.{0,80}\\b${ACT}\\b`,
      ),
      new RegExp(
        `\\b(if you are an? ${ADDRESSEE}|wenn du (eine?|ein) ${ADDRESSEE}|si (tu es|vous etes) (une?|un) ${ADDRESSEE}|si eres (una?|un) ${ADDRESSEE})\\b`,
      ),
    ],
  },
  {
    name: 'addressed_to_ai',
    verdict: 'suspect',
    patterns: [
      new RegExp(`^\\s*${AI}\\s*[:,]`),
      new RegExp(
        `\\b(dear|hey|note (to|for)( the)?|message (to|for)( the)?|hinweis (an|fur) (die|den)|note (a|pour) (l'|l |la |le )?|nota (para|a) (la |el )?)\\s*${ADDRESSEE}\\b`,
      ),
    ],
  },
  {
    name: 'money_directive',
    verdict: 'suspect',
    patterns: [
      /\b(transfer|wire|pay|send|uberweis\w*|zahl\w*|vire[rz]?|paye[rz]?|transfiere|paga)\b.{0,30}(\d[\d.,]*\s?(eur|usd|chf|gbp|€|\$)|(eur|usd|chf|gbp|€|\$)\s?\d).{0,30}\b(iban|account|konto|compte|cuenta)\b.{0,40}\b(now|immediately|today|sofort|heute|immediatement|maintenant|ahora|inmediatamente|urgent\w*|dringend)\b/,
    ],
  },
];

/**
 * The most screen text the rail reads, all pieces together, and of one piece (an outline value is
 * at most 2000): more is not checked but held (docs/models.md), never cut and let through.
 */
export const MAX_SCREEN_TEXT = 6000;
const MAX_TEXT = 4000;
/** An outline element this small cannot be meant for a person to read. */
const TINY_PX = 4;
/** Text hidden either way (too small, or faint) is suspect once it holds this many words. */
export const HIDDEN_WORDS = 4;

/** The normal form the rules match: folded, no format characters, no accents, lower case, one space. */
export function normalForm(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\p{Cf}\p{M}]/gu, '')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .toLowerCase()
    .replace(/[\s\p{Zl}\p{Zp}]+/gu, ' ')
    .trim();
}

const RANK: Record<RailVerdict, number> = { clean: 0, suspect: 1, injected: 2 };

/** The rail's verdict on everything read from one screen: the worst of its pieces. */
export function judgeScreenText(texts: readonly ScreenText[]): RailFinding {
  let worst = tooLong(texts);
  for (const piece of texts) {
    const found = judgeOne(piece);
    if (RANK[found.verdict] > RANK[worst.verdict]) worst = found;
    if (worst.verdict === 'injected') break;
  }
  return worst;
}

/** `suspect` (`too_long`, on the longest piece) when there is more text than the rail reads. */
function tooLong(texts: readonly ScreenText[]): RailFinding {
  let total = 0;
  let longest: ScreenText | null = null;
  for (const piece of texts) {
    const length = typeof piece?.text === 'string' ? piece.text.length : 0;
    total += length;
    if (length > (longest?.text.length ?? 0)) longest = piece;
  }
  return longest && (total > MAX_SCREEN_TEXT || longest.text.length > MAX_TEXT)
    ? { verdict: 'suspect', rule: 'too_long', flagged: longest }
    : { verdict: 'clean', rule: null, flagged: null };
}

function judgeOne(piece: ScreenText): RailFinding {
  if (typeof piece?.text !== 'string' || piece.text.trim() === '') {
    return { verdict: 'clean', rule: null, flagged: null };
  }
  const text = normalForm(piece.text.slice(0, MAX_TEXT));
  for (const rule of RULES) {
    if (rule.patterns.some((p) => p.test(text))) {
      return { verdict: rule.verdict, rule: rule.name, flagged: piece };
    }
  }
  if (text.split(' ').length < HIDDEN_WORDS) return { verdict: 'clean', rule: null, flagged: null };
  const r = piece.rect;
  if (r && (r.width <= TINY_PX || r.height <= TINY_PX)) {
    return { verdict: 'suspect', rule: 'hidden_text', flagged: piece };
  }
  if (piece.faint === true) return { verdict: 'suspect', rule: 'low_contrast', flagged: piece };
  return { verdict: 'clean', rule: null, flagged: null };
}
