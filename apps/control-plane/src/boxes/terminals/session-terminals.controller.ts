import { Inject, Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { TerminalListing, TerminalOutput, TerminalOutputPage } from '@sessionboxer/contracts';
import type { Actor } from '@sessionboxer/domain';
import { RequestActor } from '../../auth';
import { OUTPUT_PAGE_DEFAULT, OUTPUT_PAGE_MAX } from './output-page';
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

export class TerminalOutputQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'bytes of output already shown' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  afterOffset?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: OUTPUT_PAGE_MAX, default: OUTPUT_PAGE_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(OUTPUT_PAGE_MAX)
  limit?: number;
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

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Open the signed-in person's own Terminal: a login shell in the session's box (409 while the box is not running)",
  })
  open(@Param('id') id: string, @RequestActor() person: Actor): Promise<TerminalListing> {
    requireSession(this.readModels, id);
    return this.terminals.openShell(id, person);
  }

  @Get(':terminalId/output')
  @ApiOperation({
    summary:
      "A page of a Terminal's recorded output bytes (base64) after `afterOffset`, from the session's history: the live pane's catch-up",
  })
  output(
    @Param('id') id: string,
    @Param('terminalId') terminalId: string,
    @Query() q: TerminalOutputQueryDto,
  ): Promise<TerminalOutputPage> {
    requireSession(this.readModels, id);
    return this.terminals.output(
      id,
      terminalId,
      q.afterOffset ?? 0,
      q.limit ?? OUTPUT_PAGE_DEFAULT,
    );
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
