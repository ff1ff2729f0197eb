/** What a page of the console is, for the router (app.ts) and the pages. Types only. */
import type { Me, Permission } from './api-types';

/** What every page gets. */
export interface PageContext {
  /** Who is signed in. */
  me: Me;
  /** Whether they have a permission. */
  can: (permission: Permission) => boolean;
  /** Aborted when the page is left. */
  signal: AbortSignal;
  /** What the page's path pattern captured (an id). */
  params: string[];
  search: URLSearchParams;
  /** Goes to a console path without reloading. */
  navigate: (path: string) => void;
  /** Says something to screen readers. */
  announce: (text: string) => void;
  /** Sets the tab's title. */
  title: (text: string) => void;
}

/** A page draws itself into `main`. */
export type Page = (main: HTMLElement, ctx: PageContext) => void | Promise<void>;
