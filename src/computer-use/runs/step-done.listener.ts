import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '../../config/app-config';
import { StepsRepository } from './steps.repository';

const CHANNEL = 'warden_step_done';
/** A notification lost with a dropped connection is caught by looking again this often. */
const RECHECK_MS = 1000;

/**
 * Waits for steps to end, woken by PostgreSQL: a trigger on `steps` notifies `warden_step_done`
 * with the step's id when its phase becomes `done` (migration StepDoneNotify). One listening
 * connection per process, opened on first use; a slow look at the table covers a notification
 * missed while it reconnects.
 */
@Injectable()
export class StepDoneListener implements OnModuleDestroy {
  private readonly logger = new Logger(StepDoneListener.name);
  private readonly waiters = new Map<string, Set<() => void>>();
  private client: Promise<Client> | null = null;
  private closed = false;

  constructor(
    private readonly config: AppConfig,
    private readonly steps: StepsRepository,
  ) {}

  /** Resolves when the step is done or its run no longer running, or after `ms` whatever. */
  async waitForDone(stepId: string, ms: number): Promise<void> {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const waiting = this.waiters.get(stepId) ?? new Set();
    waiting.add(wake);
    this.waiters.set(stepId, waiting);
    const deadline = Date.now() + ms;
    try {
      await this.listening().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'cannot listen for steps that end; looking instead'),
      );
      // Subscribed first, looked second: a step that ended in between is seen by the look.
      while (Date.now() < deadline) {
        if (await this.steps.settled(stepId)) return;
        const left = Math.min(RECHECK_MS, deadline - Date.now());
        let timer: NodeJS.Timeout | undefined;
        const rechecked = new Promise<'look'>((r) => (timer = setTimeout(() => r('look'), left)));
        const why = await Promise.race([woken.then(() => 'done' as const), rechecked]);
        clearTimeout(timer);
        if (why === 'done') return;
      }
    } finally {
      waiting.delete(wake);
      if (waiting.size === 0) this.waiters.delete(stepId);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    const client = await this.client?.catch(() => null);
    await client?.end().catch(() => undefined);
  }

  private listening(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('the listener is closed'));
    this.client ??= this.connect().catch((error: unknown) => {
      this.client = null;
      throw error;
    });
    return this.client;
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.config.DATABASE_URL,
      connectionTimeoutMillis: 5000,
    });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      for (const wake of this.waiters.get(message.payload) ?? []) wake();
    });
    client.on('error', (error) => {
      this.logger.warn({ err: error }, 'the step listener lost its connection');
      client.end().catch(() => undefined);
    });
    // Whatever ended it, the next wait connects again.
    client.on('end', () => (this.client = null));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    return client;
  }
}
