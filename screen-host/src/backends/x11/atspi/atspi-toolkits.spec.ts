import { toolkitCalls } from './atspi-toolkits';

describe('the calls each toolkit is known to answer', () => {
  it('reads GTK 3 with GetAll and Collection, as GnuCash and LibreOffice answer', () => {
    expect(toolkitCalls('gtk', '3.24.38')).toEqual({
      toolkit: 'GTK 3',
      properties: 'all',
      collection: true,
      statesModal: true,
    });
  });

  it('reads Qt 5 and 6 one property at a time: GetAll kills a Qt 5 application', () => {
    for (const version of ['5.15.8', '6.4.2']) {
      expect(toolkitCalls('Qt', version)).toMatchObject({ properties: 'each', collection: false });
    }
    expect(toolkitCalls('Qt', '5.15.8')?.statesModal).toBe(false);
  });

  it('reads no toolkit, and no version, that was not tried', () => {
    expect(toolkitCalls('gtk', '4.12.0')).toBeNull();
    expect(toolkitCalls('Qt', '4.8.7')).toBeNull();
    expect(toolkitCalls('Gecko', '115.0')).toBeNull();
    expect(toolkitCalls('', '')).toBeNull();
    expect(toolkitCalls(undefined, '3.24')).toBeNull();
    expect(toolkitCalls('gtk', 3)).toBeNull();
  });
});
