import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { invalid } from '../common/domain-error';
import { Tenant, TENANT_PATTERN } from './tenant.entity';

@Injectable()
export class TenantsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A tenant is created on first use. */
  async ensure(id: string, manager: EntityManager = this.dataSource.manager): Promise<Tenant> {
    if (!TENANT_PATTERN.test(id)) {
      throw invalid(
        `tenant "${id}" is not a valid name: 1-63 lower-case letters, digits and dashes, starting with a letter or digit`,
      );
    }
    await manager.createQueryBuilder().insert().into(Tenant).values({ id }).orIgnore().execute();
    return manager.findOneByOrFail(Tenant, { id });
  }

  /** Every tenant's id, in order (an event of the whole deployment is recorded in each chain). */
  async ids(manager: EntityManager = this.dataSource.manager): Promise<string[]> {
    const rows = await manager.find(Tenant, { select: { id: true }, order: { id: 'ASC' } });
    return rows.map((t) => t.id);
  }
}
