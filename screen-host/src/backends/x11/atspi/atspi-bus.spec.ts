import { isStale } from './atspi-bus';

describe("the display's accessibility bus", () => {
  const exists = (live: string[]) => (path: string) => live.includes(path);

  it('is stale when every socket path it names is gone', () => {
    const address = 'unix:path=/tmp/screen-host-atspi-x/bus,guid=0123abcd';
    expect(isStale(address, exists([]))).toBe(true);
    expect(isStale(address, exists(['/tmp/screen-host-atspi-x/bus']))).toBe(false);
    expect(isStale('unix:path=/a;unix:path=/b', exists(['/b']))).toBe(false);
    expect(
      isStale('unix:path=/run/user/1000/at-spi/bus%5f0', exists(['/run/user/1000/at-spi/bus_0'])),
    ).toBe(false);
  });

  it('is taken as live where it cannot be checked (an abstract socket, TCP)', () => {
    expect(isStale('unix:abstract=/tmp/dbus-XYZ,guid=1', exists([]))).toBe(false);
    expect(isStale('tcp:host=localhost,port=4000', exists([]))).toBe(false);
  });
});
