import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { Response } from 'express';
import { boxPaths } from '../box-lifecycle/box-paths';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { resolveBoxFile, type BoxFile } from './box-files';
import { SessionsService } from './sessions.service';

/**
 * A workspace file is the box's, not ours: it is never run as a page of the control plane's
 * origin (an .html or .svg would otherwise script the signed-in person's session).
 */
const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Files of a session's box (recordings, captions, Auto QA screenshots) for the web UI. */
@ApiTags('sessions')
@Controller('api/sessions/:id/files')
export class SessionFilesController {
  constructor(
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      "A file of the session's box, by its path in the box; HTTP range requests let a video seek",
  })
  @ApiQuery({ name: 'path', example: '/workspace/recordings/1.mp4' })
  async file(
    @Param('id') id: string,
    @Query('path') boxPath: unknown,
    @Res() res: Response,
  ): Promise<void> {
    this.sessions.get(id);
    const file = await resolveBoxFile(boxPaths(this.config.dataDir, id).workspace, boxPath);
    await send(res, file);
  }
}

/** Express's sendFile (Range, ETag, Content-Type by extension), confined to the workspace. */
function send(res: Response, file: BoxFile): Promise<void> {
  const options = { root: file.root, dotfiles: 'allow' as const, headers: FILE_HEADERS };
  return new Promise((resolve, reject) => {
    res.sendFile(file.relative, options, (e?: Error & { status?: number }) => {
      // Once the answer started, an error is the browser going away (a seek aborts a range).
      if (!e || res.headersSent) return resolve();
      // A range past the end (416, with Content-Range set) or a failed If-Match (412).
      if (e.status === 416 || e.status === 412) {
        res.status(e.status).end();
        return resolve();
      }
      reject(new DomainError(ErrorCode.NotFound, 'the file is gone'));
    });
  });
}
