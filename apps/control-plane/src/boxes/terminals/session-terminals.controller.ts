import { Inject, Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { TerminalListing, TerminalOutput } from '@sessionboxer/contracts';
import { Terminals } from './terminals.service';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { requireSession } from '../../common/require-session';
import { READ_MODELS } from '../../infrastructure/tokens';

/** The box retains up to 256 KB per Terminal; this many lines shows all of a typical one. */
const DEFAULT_LINES = 2000;

export class TerminalReadQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100_000, default: DEFAULT_LINES })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  lines?: number;
}

/** A session's Terminals (the Terminals pane): the list, and one's retained output. */
@ApiTags('sessions')
@Controller('api/sessions/:id/terminals')
export class SessionTerminalsController {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly terminals: Terminals,
  ) {}

  @Get()
  @ApiOperation({ summary: "The session's Terminals, oldest first, exited ones too" })
  list(@Param('id') id: string): TerminalListing[] {
    requireSession(this.readModels, id);
    return this.terminals.list(id);
  }

  @Get(':terminalId/asciicast')
  @Header('content-type', 'application/x-asciicast; charset=utf-8')
  @ApiOperation({
    summary:
      "A Terminal's whole output as an asciicast v2 recording (asciinema), from the session's history: it works when the box is gone too",
  })
  asciicast(@Param('id') id: string, @Param('terminalId') terminalId: string): Promise<string> {
    requireSession(this.readModels, id);
    return this.terminals.asciicast(id, terminalId);
  }

  @Get(':terminalId')
  @ApiOperation({
    summary:
      "A Terminal's retained output, its last `lines` lines (409 while the session's box is not running)",
  })
  read(
    @Param('id') id: string,
    @Param('terminalId') terminalId: string,
    @Query() q: TerminalReadQueryDto,
  ): Promise<TerminalOutput> {
    requireSession(this.readModels, id);
    return this.terminals.read(id, terminalId, q.lines ?? DEFAULT_LINES);
  }
}
