/** The scripted planners the bench's runs follow. */

/** Ten reads on SAP Easy Access: navigation keys, clicks on menu folders, a scroll. */
export const READ_SCRIPT = {
  steps: [
    { step: 'down-1', action: { action: 'key', key: 'ArrowDown' } },
    { step: 'down-2', action: { action: 'key', key: 'ArrowDown' } },
    {
      step: 'logistics',
      action: { action: 'click', element: { role: 'listitem', name: 'Logistics' } },
    },
    {
      step: 'sd',
      action: { action: 'click', element: { role: 'listitem', name: 'Sales and Distribution' } },
    },
    { step: 'down-3', action: { action: 'key', key: 'ArrowDown' } },
    {
      step: 'scroll',
      action: {
        action: 'scroll',
        element: { role: 'listitem', name: 'Sales' },
        direction: 'down',
        amount: 3,
      },
    },
    {
      step: 'accounting',
      action: { action: 'click', element: { role: 'listitem', name: 'Accounting' } },
    },
    { step: 'up', action: { action: 'key', key: 'ArrowUp' } },
    {
      step: 'gl',
      action: { action: 'click', element: { role: 'listitem', name: 'General Ledger' } },
    },
    { step: 'help', action: { action: 'key', key: 'F1' } },
  ],
};

/** One write (Save, held for approval), then one read. */
export const WRITE_SCRIPT = {
  steps: [
    { step: 'save', action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    { step: 'down', action: { action: 'key', key: 'ArrowDown' } },
  ],
};

/** A run's steps: the script's, and the `done` after them. */
export const stepsPerRun = (script: { steps: unknown[] }) => script.steps.length + 1;
