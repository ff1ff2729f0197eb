import { initialOrders, SalesOrder } from './sim-data';

export type SimScreen = 'menu' | 'va-initial' | 'va-overview' | 'fb50' | 'pwd';

export interface StatusMessage {
  /** SAP's message types: S success, E error, W warning, I information. */
  type: 'S' | 'E' | 'W' | 'I';
  text: string;
  /**
   * Drawn in nearly the status bar's own colour, with no icon: text a person cannot see but the
   * outline serves (test route `POST /sim/poke` with `faint: true`, for the injection rail).
   */
  faint?: boolean;
}

/** A modal confirm dialog over the screen (test route `POST /sim/popup`). */
export interface SimPopup {
  title: string;
  message: string;
  /** The first commits what the screen behind holds; the others close the dialog. */
  buttons: string[];
}

export interface SimState {
  screen: SimScreen;
  mode: 'change' | 'display';
  /** Field values of the current screen, and `cmd`, the command field. */
  values: Record<string, string>;
  /**
   * The fields the user changed since the last dialog step, as SAP GUI Scripting's `Modified`
   * says it: set by typing, cleared when a function (Enter, Save …) takes the screen's input.
   */
  modified: string[];
  focus: string | null;
  caret: number;
  /** A field reached by click or Tab has its whole content selected, so typing replaces it. */
  selectAll: boolean;
  overwrite: boolean;
  status: StatusMessage | null;
  orderNumber: string | null;
  /** SAP remembers the last order per user (a SET/GET parameter) and offers it again. */
  lastOrder: string;
  tableTop: number;
  menuSelection: number | null;
  orders: Record<string, SalesOrder>;
  documentCounter: number;
  password: string;
  /** While set, the dialog takes every input: nothing behind it can be reached. */
  popup: SimPopup | null;
}

/** The password the simulated user has before any change (documented in docs/screen-host.md). */
export const INITIAL_PASSWORD = 'Initial-Pass-1';

export function initialState(): SimState {
  return {
    screen: 'menu',
    mode: 'display',
    values: { cmd: '' },
    modified: [],
    focus: 'cmd',
    caret: 0,
    selectAll: false,
    overwrite: false,
    status: null,
    orderNumber: null,
    lastOrder: '',
    tableTop: 0,
    menuSelection: null,
    orders: initialOrders(),
    documentCounter: 0,
    password: INITIAL_PASSWORD,
    popup: null,
  };
}
