import { Body, Controller, Get, Headers, Options, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiKeys } from '../api-keys';
import { Public } from '../auth';
import { callTool, type CallOutcome } from './call-tool';
import { sandboxOpenApi } from './openapi';
import { SandboxApiService } from './sandbox-api.service';
import { SANDBOX_TOOLS } from './tools';
import { callAsToken, isSandboxToken, SandboxTokens } from './tokens';
import { allowOrigin, answerPreflight } from './tokens/token-cors';

/**
 * The REST face of the same tools: `POST /v1/<tool name>` with the tool's arguments as the
 * JSON body, answered with the same result (200) or `{ error, message }` with the spec's code.
 * A sandbox token (sbt_…) reaches only its sandbox's desktop tools, from its own origins.
 */
@ApiTags('sandbox API (API key)')
@ApiBearerAuth()
@Public()
@Controller('v1')
export class SandboxRestController {
  constructor(
    private readonly keys: ApiKeys,
    private readonly api: SandboxApiService,
    private readonly tokens: SandboxTokens,
  ) {}

  /** A browser's preflight for a token's page (see token-cors). */
  @Options(':tool')
  preflight(@Req() req: Request, @Res() res: Response): void {
    if (!answerPreflight(req, res)) res.status(204).end();
  }

  @Post(':tool')
  @ApiOperation({ summary: `One of: ${SANDBOX_TOOLS.map((t) => t.name).join(', ')}` })
  async call(
    @Param('tool') name: string,
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Headers('origin') origin: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    if (isSandboxToken(authorization)) return this.asToken(name, body, authorization, origin, res);
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
    answer(res, await callTool(tool, this.api.services, caller, body));
  }

  private async asToken(
    name: string,
    body: unknown,
    authorization: string | undefined,
    origin: string | undefined,
    res: Response,
  ): Promise<void> {
    const auth = await this.tokens.authenticate(authorization, origin);
    if (!auth.ok) {
      const error = auth.status === 401 ? 'unauthenticated' : 'forbidden';
      res
        .status(auth.status)
        .json({ error, message: auth.message, details: { reason: auth.reason } });
      return;
    }
    allowOrigin(res, origin);
    const tool = SANDBOX_TOOLS.find((t) => t.name === name);
    if (tool === undefined) {
      res.status(404).json({ error: 'not_found', message: `there is no tool ${name}` });
      return;
    }
    answer(
      res,
      await callAsToken(tool, this.api.services, this.tokens, auth.identity, body, 'rest'),
    );
  }
}

function answer(res: Response, out: CallOutcome): void {
  if (out.ok) res.status(200).json(out.result);
  else res.status(out.status).json(out.error);
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
