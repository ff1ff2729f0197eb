import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

/** Anything that counts the connections it accepted. */
export interface CountsConnections {
  connections(): number;
}

/**
 * Counts every connection `server` accepts, from now on: the proof that Warden contacted an
 * origin, or did not, whatever it would have spoken there.
 */
export function countConnections(server: Server): () => number {
  let accepted = 0;
  server.on('connection', () => accepted++);
  return () => accepted;
}

/** A TCP listener on loopback that records every connection it accepts and drops it at once. */
export interface RecordingListener extends CountsConnections {
  port: number;
  /** The listener as each kind of destination names it. */
  https: string;
  tls: string;
  smtp: string;
  close(): Promise<void>;
}

export async function startRecordingListener(): Promise<RecordingListener> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.destroy();
  });
  const connections = countConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    https: `https://127.0.0.1:${port}`,
    tls: `tls://127.0.0.1:${port}`,
    smtp: `smtp://127.0.0.1:${port}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * No connection reached any of these (named, so a failure says which one did): what a test
 * asserts of every destination that is not granted (docs/security.md "Destinations").
 */
export function expectNoConnection(listeners: Record<string, CountsConnections>): void {
  const seen = Object.fromEntries(Object.entries(listeners).map(([n, l]) => [n, l.connections()]));
  expect(seen).toEqual(Object.fromEntries(Object.keys(listeners).map((n) => [n, 0])));
}
