/** Warden's action rules (docs/rules.md): the single place that says what may be sent and what is a write. */
export * from './action.types';
export { parseAction, checkShape, LIMITS } from './parse-action';
export { validate } from './validate';
export { classify, LABEL_SOURCES } from './classify';
export {
  checkAction,
  focusedFieldPoint,
  needsFieldOcr,
  needsOcr,
  needsTitle,
  screenTitle,
  type Verdict,
} from './check-action';
export { normaliseKey, keyKind } from './keys';
export {
  labelAt,
  outlineLabelAt,
  outlineTitle,
  targetUnderRedaction,
  underRegion,
} from './label-at';
export {
  labelEvidence,
  type EvidenceElement,
  type LabelEvidence,
  type ReachedField,
} from './label-evidence';
export { focusMoves, moveInWords, movesFocus, type FocusMove } from './focus-reach';
export { loadRules, roleKey, RulesError, type Rules, type AgentRules } from './rules';
export { findCommitWord, fold, words } from './commit-words';
export {
  completesCardNumber,
  containsCardNumber,
  luhn,
  maskCardNumbers,
  maskCardNumbersIn,
} from './card-number';
export { describeChange } from './change-text';
export {
  changeList,
  sameStagedField,
  stageEdit,
  type Change,
  type NotStaged,
  type ReadBackCheck,
  type StagedEdit,
  type StagedField,
  type StagingStep,
} from './staging';
export {
  lastClickPoint,
  PERFORMED,
  previousAction,
  typedSinceFocus,
  SAME_LINE_PX,
  type EarlierStep,
} from './typed-field';
export {
  readScreenRules,
  SCREEN_RULE_LIMITS,
  type CommandFieldScreenRule,
  type ScreenRule,
  type TitleScreenRule,
} from './screen-rules-read';
export { type ScreenTitle } from './screen-rules';
export {
  compilePattern,
  type CompiledPattern,
  matchesOne,
  newPatternBudget,
  patternProblem,
  SCREEN_RULE_PATTERNS_SIZE_MAX,
  SCRIPT_PATTERNS_SIZE_MAX,
  unusablePattern,
  type PatternBudget,
  type TenantPattern,
} from './patterns';
export { findNearMiss, withinOneEdit } from './near-miss';
export { judgeOcrReading, ocrText, type OcrLabel } from './ocr-label';
export { findSecretFieldWord } from './secret-fields';
export { BASE_KEYS, MODIFIERS } from '@warden/protocol';
