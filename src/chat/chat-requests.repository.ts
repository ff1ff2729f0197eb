import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Chat requests already taken (docs/notifications.md), by a digest of what makes each one unique
 * (Slack's signature, a Teams activity's id), so the same request sent again is refused. A
 * digest is kept a day: far longer than a request is fresh (five minutes for Slack, a token's
 * life for Teams).
 */
@Injectable()
export class ChatRequestsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Takes the request: false when it was taken before. */
  async take(digest: string): Promise<boolean> {
    await this.dataSource.query(
      `DELETE FROM chat_requests WHERE seen_at < now() - interval '1 day'`,
    );
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO chat_requests (digest) VALUES ($1) ON CONFLICT (digest) DO NOTHING RETURNING digest`,
      [digest],
    );
    return rows.length === 1;
  }
}
