import { Injectable } from '@nestjs/common';
import type { Caller } from '../auth/caller';
import { DeliveriesRepository } from './deliveries.repository';
import { deliveryView, type DeliveryView } from './delivery.view';
import type { ListDeliveriesDto } from './dto/list-deliveries.dto';

/** What the admin API shows of deliveries: the caller's tenant only. */
@Injectable()
export class DeliveriesService {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  async list(
    caller: Caller,
    query: ListDeliveriesDto,
  ): Promise<{ items: DeliveryView[]; next_cursor: string | null }> {
    const page = await this.deliveries.page(
      caller.tenant,
      { status: query.status, runId: query.run_id },
      query.limit,
      query.cursor,
    );
    return { items: page.items.map(deliveryView), next_cursor: page.next_cursor };
  }
}
