import { Body, Controller, Get, Headers, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiKeys } from '../api-keys';
import { Public } from '../auth';
import { callTool } from './call-tool';
import { sandboxOpenApi } from './openapi';
import { SandboxApiService } from './sandbox-api.service';
import { SANDBOX_TOOLS } from './tools';

/**
 * The REST face of the same tools: `POST /v1/<tool name>` with the tool's arguments as the
 * JSON body, answered with the same result (200) or `{ error, message }` with the spec's code.
 */
@ApiTags('sandbox API (API key)')
@ApiBearerAuth()
@Public()
@Controller('v1')
export class SandboxRestController {
  constructor(
    private readonly keys: ApiKeys,
    private readonly api: SandboxApiService,
  ) {}

  @Post(':tool')
  @ApiOperation({ summary: `One of: ${SANDBOX_TOOLS.map((t) => t.name).join(', ')}` })
  async call(
    @Param('tool') name: string,
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const caller = await this.keys.authenticate(authorization);
    if (caller === null) {
      res.status(401).json({
        error: 'unauthenticated',
        message: 'an API key is needed: Authorization: Bearer sbk_…',
      });
      return;
    }
    const tool = SANDBOX_TOOLS.find((t) => t.name === name);
    if (tool === undefined) {
      res.status(404).json({ error: 'not_found', message: `there is no tool ${name}` });
      return;
    }
    const out = await callTool(tool, this.api.services, caller, body);
    if (out.ok) res.status(200).json(out.result);
    else res.status(out.status).json(out.error);
  }
}

/** `GET /api/v1/openapi.json`: every /v1 route, from the tools' own zod schemas (public). */
@ApiTags('sandbox API (API key)')
@Public()
@Controller('api/v1')
export class SandboxOpenApiController {
  @Get('openapi.json')
  openapi() {
    return sandboxOpenApi();
  }
}
