import { spawn } from 'node:child_process';
import { stopChild } from './children';

export interface Xvfb {
  /** The X display, `:N`. */
  display: string;
  close(): Promise<void>;
}

/**
 * A throwaway X display: Xvfb on a free display number (it picks one and tells us through
 * -displayfd), `width`x`height` at 24 bits, no TCP. The one way the tests, the evals and the
 * benches start one.
 */
export function startXvfb(width = 1280, height = 800): Promise<Xvfb> {
  const child = spawn(
    'Xvfb',
    ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}: ${err.slice(-500)}`)));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      out += d.toString();
      const match = /^(\d+)\n/.exec(out);
      if (match) resolve({ display: `:${match[1]}`, close: () => stopChild(child) });
    });
  });
}
