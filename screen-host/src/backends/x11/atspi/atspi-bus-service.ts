/**
 * What at-spi2-core's bus launcher answers on a desktop's session bus, answered by the host on the
 * accessibility bus it starts itself: the name `org.a11y.Bus`, whose `GetAddress` names the
 * accessibility bus, and whose `org.a11y.Status` says accessibility is on. Qt finds the bus that
 * way. Qt 5.15 and 6.4 read the root window's `AT_SPI_BUS` only once they have a session bus, and
 * Qt 6.4 then loses what it read (it announces the bus before anything listens) and registers
 * nothing; asked through `org.a11y.Bus`, both register. So a Qt application started with the
 * accessibility bus as its session bus (`DBUS_SESSION_BUS_ADDRESS`, docs/screen-host.md) publishes
 * its tree, with no desktop session and no window manager.
 */
import * as dbus from '@homebridge/dbus-native';

const NAME = 'org.a11y.Bus';
const PATH = '/org/a11y/bus';
/** DBUS_NAME_FLAG_DO_NOT_QUEUE: the name now, or not at all. */
const DO_NOT_QUEUE = 4;
/** DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER. */
const PRIMARY_OWNER = 1;
const TIMEOUT_MS = 5000;

interface ServiceBus {
  requestName(name: string, flags: number, callback: (err: unknown, reply?: number) => void): void;
  exportInterface(obj: object, path: string, iface: object): void;
  connection: {
    on(event: 'error', listener: (err: Error) => void): void;
    end(): void;
    stream: { destroy(): void };
  };
}

export interface BusService {
  close(): void;
}

/** Claims `org.a11y.Bus` on the bus at `address` and answers as the bus launcher does. */
export async function serveBusLauncher(address: string): Promise<BusService> {
  const bus = (dbus as unknown as { createClient(o: object): ServiceBus }).createClient({
    busAddress: address,
  });
  bus.connection.on('error', () => undefined); // the bus going away ends the host's reading too
  const close = () => {
    try {
      bus.connection.end();
      bus.connection.stream.destroy();
    } catch {
      // already gone
    }
  };
  try {
    const reply = await new Promise<number | undefined>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)),
        TIMEOUT_MS,
      );
      bus.requestName(NAME, DO_NOT_QUEUE, (err, answer) => {
        clearTimeout(timer);
        if (err)
          reject(
            new Error(
              `${NAME} could not be had: ${err instanceof Error ? err.message : JSON.stringify(err)}`,
            ),
          );
        else resolve(answer);
      });
    });
    if (reply !== PRIMARY_OWNER) throw new Error(`${NAME} is already owned on the bus`);
  } catch (err) {
    close();
    throw err;
  }
  bus.exportInterface({ GetAddress: () => address }, PATH, {
    name: NAME,
    methods: { GetAddress: ['', 's'] },
    properties: {},
    signals: {},
  });
  bus.exportInterface({ IsEnabled: true, ScreenReaderEnabled: false }, PATH, {
    name: 'org.a11y.Status',
    methods: {},
    properties: { IsEnabled: 'b', ScreenReaderEnabled: 'b' },
    signals: {},
  });
  return { close };
}
