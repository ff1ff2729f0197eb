/**
 * The audit log: filters, the hash chain check, and the NDJSON export. The filters live in the
 * URL (`/console/audit?run_id=…`), so a run page can link to its events. The page is one state
 * (audit-view.ts says what each part shows of it); audit-parts.ts turns it into nodes, and this
 * file reads the events, checks the chain and exports.
 */
import { api, apiBlob, query } from './api';
import { h } from './dom';
import { oversightSection } from './oversight';
import {
  auditState,
  CHAIN_CHECKING,
  chainFailed,
  chainView,
  exportedText,
  exportName,
  fieldsOf,
  filtersOf,
  leadText,
  ndjsonLines,
  type AuditState,
} from './audit-view';
import { auditParts, drawState, eventsTable, filterForm } from './audit-parts';
import type { AuditEvent, ListPage, Verify } from './api-types';
import type { PageContext } from './page';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Saves a file the browser holds as a download. */
function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The button that checks the tenant's hash chain, and says what it found in the state. */
function chainCheck(state: AuditState, draw: () => void) {
  const verify = h('button', { type: 'button' }, 'Check the hash chain');
  verify.addEventListener('click', () => {
    verify.disabled = true;
    state.chain = CHAIN_CHECKING;
    draw();
    api<Verify>('/api/audit/verify').then(
      (result) => {
        verify.disabled = false;
        state.chain = chainView(result, state.tenant);
        draw();
      },
      (error: unknown) => {
        verify.disabled = false;
        state.chain = chainFailed(messageOf(error));
        draw();
      },
    );
  });
  return verify;
}

/**
 * The button that exports the events the filters select as NDJSON, and says what it saved.
 * @param path the API's path for the filters as the form holds them now
 */
function exportTool(state: AuditState, path: () => string, draw: () => void) {
  const button = h('button', { type: 'button' }, 'Export as NDJSON');
  button.addEventListener('click', () => {
    button.disabled = true;
    state.exported = 'Exporting…';
    draw();
    apiBlob(path(), { accept: 'application/x-ndjson' }).then(
      async (blob) => {
        const lines = ndjsonLines(await blob.text());
        download(blob, exportName(state.tenant, new Date()));
        button.disabled = false;
        state.exported = exportedText(lines, blob.size);
        draw();
      },
      (error: unknown) => {
        button.disabled = false;
        state.exported = `Could not export: ${messageOf(error)}`;
        draw();
      },
    );
  });
  return button;
}

export function renderAudit(main: HTMLElement, ctx: PageContext) {
  const state = auditState(ctx.me.tenant);
  const p = auditParts();
  const draw = () => drawState(p, state);
  // The tools sit with the filters: the export takes the same filters; the check covers the tenant.
  const path = () => `/api/audit${query(filtersOf(filters.read()))}`;
  const filters = filterForm(fieldsOf(ctx.search), [
    chainCheck(state, draw),
    exportTool(state, path, draw),
  ]);
  filters.form.addEventListener('submit', (event) => {
    event.preventDefault();
    ctx.navigate(`/console/audit${query(filtersOf(filters.read()))}`);
  });

  main.append(
    h('h1', {}, 'Audit log'),
    h('p', { class: 'lead' }, leadText(state.tenant)),
    filters.form,
    p.chain,
    p.exported,
    p.problem,
    p.count,
    eventsTable(p.body),
    p.more,
  );
  // An auditor sees how approvers decide too; an admin has it on the Admin page.
  if (!ctx.can('computer_use.admin')) main.append(oversightSection(ctx.signal));

  const load = async (cursor: string | null) => {
    p.more.disabled = true;
    try {
      const page: ListPage<AuditEvent> = await api(
        `/api/audit${query({ ...filtersOf(filters.read()), limit: 100, cursor })}`,
        { signal: ctx.signal },
      );
      state.events.push(...page.items);
      state.next = page.next_cursor;
      state.read = true;
      state.problem = '';
    } catch (error) {
      if (ctx.signal.aborted) return;
      state.problem = `Could not read the audit log: ${messageOf(error)}`;
    }
    p.more.disabled = false;
    draw();
  };
  p.more.addEventListener('click', () => void load(state.next));
  void load(null);
}
