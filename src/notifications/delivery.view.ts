import { channelKind, type NotifyKind } from './notify-channel';
import type { Delivery, DeliveryStatus } from './delivery.entity';
import type { NotifyEventKind } from './notify-event';

/** A delivery as `GET /api/admin/deliveries` shows it: where it went, how it went, never a secret. */
export interface DeliveryView {
  id: string;
  agent: string;
  run_id: string | null;
  approval_id: string | null;
  event: NotifyEventKind;
  channel: { kind: NotifyKind; to: string };
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

export function deliveryView(d: Delivery): DeliveryView {
  const to = channelKind(d.channel.kind).shownTo(d.channel);
  return {
    id: d.id,
    agent: d.agent,
    run_id: d.runId,
    approval_id: d.approvalId,
    event: d.event,
    channel: { kind: d.channelKind, to },
    status: d.status,
    attempts: d.attempts,
    last_error: d.lastError,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    delivered_at: d.deliveredAt ? iso(d.deliveredAt) : null,
  };
}

/** Raw rows carry times as Date or as PostgreSQL text. */
function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
