import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * A subject's planner tags (docs/models.md), for GET /api/me: read here from `planner_access`, which the
 * planner catalog owns and the deployment operator alone writes (computer-use/catalog/).
 */
@Injectable()
export class SubjectTagsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async tags(tenant: string, subject: string): Promise<string[]> {
    const rows: Array<{ name: string }> = await this.dataSource.query(
      `SELECT name FROM planner_access WHERE kind = 'tag' AND tenant = $1 AND subject = $2
        ORDER BY name`,
      [tenant, subject],
    );
    return rows.map((r) => r.name);
  }
}
