import { Controller, Get, Headers, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../common/api-schema';
import { Readable } from 'node:stream';
import type { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { Permissions } from '../auth/permissions.decorator';
import { decodeCursor } from '../common/cursor';
import { AuditFilter, AuditService } from '../audit/audit.service';
import { AuditQueryDto } from './dto/audit-query.dto';

const NDJSON = 'application/x-ndjson';

@ApiTags('audit')
@Controller('api/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  /** Events in chain order. With `Accept: application/x-ndjson`: every matching event, streamed. */
  @Get()
  @Permissions('audit.read')
  @ApiProduces('application/json', NDJSON)
  @ApiOkResponse({
    description: 'a page of events; with `Accept: application/x-ndjson`, every match, one per line',
    content: {
      'application/json': { schema: schemaRef('AuditEventPage') },
      [NDJSON]: { schema: { type: 'string', description: 'one AuditEvent JSON per line' } },
    },
  })
  @ApiOperation({ summary: 'List audit events, or export them as NDJSON' })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: AuditQueryDto,
    @Headers('accept') accept?: string,
  ) {
    const filter: AuditFilter = {
      type: query.type,
      runId: query.run_id,
      since: query.since ? new Date(query.since) : undefined,
      until: query.until ? new Date(query.until) : undefined,
      afterSeq: query.cursor ? decodeCursor<[number]>(query.cursor, 'n')[0] : undefined,
    };
    if (accept?.includes(NDJSON)) {
      const lines = async function* (events: AsyncGenerator<unknown>) {
        for await (const event of events) yield JSON.stringify(event) + '\n';
      };
      return new StreamableFile(Readable.from(lines(this.audit.export(caller.tenant, filter))), {
        type: NDJSON,
      });
    }
    return this.audit.list(caller.tenant, filter, query.limit);
  }

  /** Recomputes the tenant's hash chain: `{ok, checked, first_bad_id?, head_sha256}`. */
  @Get('verify')
  @Permissions('audit.read')
  @ApiOperation({ summary: "Check the tenant's hash chain" })
  @ApiOkResponse({ schema: schemaRef('AuditVerification') })
  verify(@CurrentCaller() caller: Caller) {
    return this.audit.verify(caller.tenant);
  }
}
