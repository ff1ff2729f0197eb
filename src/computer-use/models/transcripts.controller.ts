import { Controller, Get, Param, ParseIntPipe, ParseUUIDPipe } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { schemaRef } from '../../common/api-schema';
import type { Caller } from '../../auth/caller';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { Permissions } from '../../auth/permissions.decorator';
import { TranscriptsService } from './transcripts.service';

@ApiTags('runs')
@Controller('api/computer-use/runs')
export class TranscriptsController {
  constructor(private readonly transcripts: TranscriptsService) {}

  /** What the step asked its model and what it answered: tokens, latency, cost, no screenshot bytes. */
  @Get(':id/steps/:n/transcript')
  @Permissions('agents.operate', 'audit.read')
  @ApiOperation({ summary: "Read a step's model transcript" })
  @ApiOkResponse({ schema: schemaRef('Transcript') })
  transcript(
    @CurrentCaller() caller: Caller,
    @Param('id', ParseUUIDPipe) id: string,
    @Param('n', ParseIntPipe) n: number,
  ) {
    return this.transcripts.forStep(caller, id, n);
  }
}
