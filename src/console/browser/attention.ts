/**
 * What oversight learns from the approval page (docs/approver-guide.md): the page reports that it
 * was opened (once per opening), and when a held commit's change list came into view (at least
 * half of it, or half the screen when it is taller); a decision names the view it was made from,
 * so Warden knows how long after opening it was made and whether the list had been in view. A
 * report that fails is dropped: it never stands in the way of a decision.
 */
import { api } from './api';

export interface Attention {
  /** The view to name in the decision; undefined until the API recorded the opening. */
  viewId(): string | undefined;
  /** Reports the change list once it comes into view. */
  watch(list: Element | null): void;
}

export function reportAttention(approvalId: string, signal: AbortSignal): Attention {
  let viewId: string | undefined;
  let seen = false;
  let reported = false;
  const report = () => {
    if (!seen || !viewId || reported) return;
    reported = true;
    api(`/api/approvals/${approvalId}/views/${viewId}/changes-seen`, { method: 'POST' }).catch(
      () => undefined,
    );
  };
  api<{ id: string }>(`/api/approvals/${approvalId}/views`, { method: 'POST', signal }).then(
    (view) => {
      viewId = view.id;
      report();
    },
    () => undefined,
  );
  return {
    viewId: () => viewId,
    watch(list) {
      if (!list) return;
      const observer = new IntersectionObserver(
        (entries) => {
          const inView = entries.some(
            (e) =>
              e.isIntersecting &&
              e.intersectionRect.height >=
                Math.min(e.boundingClientRect.height, window.innerHeight) * 0.5,
          );
          if (!inView) return;
          observer.disconnect();
          seen = true;
          report();
        },
        { threshold: [0, 0.25, 0.5, 0.75, 1] },
      );
      observer.observe(list);
      signal.addEventListener('abort', () => observer.disconnect());
    },
  };
}
