import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { BoxDirListing } from '@sessionboxer/contracts';
import { boxPaths } from '../lifecycle/box-paths';
import type { AppConfig } from '../../config';
import { APP_CONFIG } from '../../infrastructure/tokens';
import { listBoxDir } from './box-dirs';
import { openBoxFile } from './box-files';
import { sendBoxFile } from './file-answer';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { requireSession } from '../../common/require-session';
import { READ_MODELS } from '../../infrastructure/tokens';

/**
 * Files of a session's box (recordings, captions, Auto QA screenshots, the Files pane) for
 * the web UI: one file, or one folder's listing.
 */
@ApiTags('sessions')
@Controller('api/sessions/:id')
export class SessionFilesController {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('dirs')
  @ApiOperation({ summary: "A folder of the session's box workspace: its entries, folders first" })
  @ApiQuery({ name: 'path', example: '/workspace' })
  dir(@Param('id') id: string, @Query('path') boxPath: unknown): Promise<BoxDirListing> {
    requireSession(this.readModels, id);
    return listBoxDir(boxPaths(this.config.dataDir, id).workspace, boxPath ?? '/workspace');
  }

  @Get('files')
  @ApiOperation({
    summary:
      "A file of the session's box, by its path in the box; HTTP range requests let a video seek",
  })
  @ApiQuery({ name: 'path', example: '/workspace/recordings/1.mp4' })
  async file(
    @Param('id') id: string,
    @Query('path') boxPath: unknown,
    @Headers('range') range: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    requireSession(this.readModels, id);
    const file = await openBoxFile(boxPaths(this.config.dataDir, id).workspace, boxPath);
    sendBoxFile(res, file, range);
  }
}
