/**
 * The example of docs/api.md: change order 4711's Req. Deliv. Date in VA02 on the sim screen host
 * and save. Aimed at elements by role and name, never at coordinates. The demo uses it too, and
 * test/planners/planners.e2e-spec.ts drives the sim with it and checks that docs/api.md shows this script.
 */
export const VA02_EXAMPLE_SCRIPT = {
  patience: 10,
  steps: [
    {
      step: 'command field',
      action: { action: 'click', element: { role: 'textbox', name: 'Command field' } },
    },
    { action: { action: 'type', text: '/nVA02' } },
    { action: { action: 'key', key: 'Enter' } },
    {
      step: 'order',
      when: { text: '^Change Sales Order: Initial Screen$' },
      action: { action: 'click', element: { role: 'textbox', name: 'Order' } },
    },
    { action: { action: 'type', text: '4711' } },
    { action: { action: 'key', key: 'Enter' } },
    {
      step: 'date',
      when: { text: '^Change Standard Order 4711: Overview$' },
      action: { action: 'click', element: { role: 'textbox', name: 'Req. Deliv. Date' } },
    },
    { action: { action: 'type', text: '30.04.2026' } },
    { step: 'save', action: { action: 'click', element: { role: 'button', name: 'Save' } } },
    {
      step: 'check',
      when: { text: '^Sales order 4711 has been saved$' },
      action: { action: 'done', summary: 'order 4711: Req. Deliv. Date is now 30.04.2026' },
    },
  ],
} as const;
