import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import type { RepositoryView, SessionDiff } from '@sessionboxer/contracts';
import { IdempotencyKey, RequestActor } from '../auth';
import { AddRepositoryDto, UpdateRepositoryDto } from './repositories.dto';
import { Repositories } from './repositories.service';
import { SessionDiffs } from './session-diff';

const idempotency = { name: 'Idempotency-Key', required: false };

/** Global settings' repositories (people only: a box has no route here), and a session's diff. */
@ApiTags('repositories')
@Controller('api')
export class RepositoriesController {
  constructor(
    private readonly repositories: Repositories,
    private readonly diffs: SessionDiffs,
  ) {}

  @Get('settings/repositories')
  @ApiOperation({ summary: "Global settings' repositories, in the order they were added" })
  list(): RepositoryView[] {
    return this.repositories.list();
  }

  @Post('settings/repositories')
  @ApiOperation({ summary: 'Add a repository (name, clone URL, default branch: main)' })
  @ApiHeader(idempotency)
  async add(
    @Body() dto: AddRepositoryDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<RepositoryView> {
    await this.repositories.execute({ type: 'AddRepository', data: { ...dto } }, actor, key);
    return this.repositories.get(dto.name);
  }

  @Put('settings/repositories/:name')
  @ApiOperation({ summary: "Change a repository's clone URL or default branch" })
  @ApiHeader(idempotency)
  async update(
    @Param('name') name: string,
    @Body() dto: UpdateRepositoryDto,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<RepositoryView> {
    const data = { ...dto, name };
    await this.repositories.execute({ type: 'UpdateRepository', data }, actor, key);
    return this.repositories.get(name);
  }

  @Delete('settings/repositories/:name')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a repository (sessions that have it keep their clone)' })
  async remove(
    @Param('name') name: string,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<void> {
    await this.repositories.execute({ type: 'RemoveRepository', data: { name } }, actor, key);
  }

  @Get('sessions/:id/diff')
  @ApiOperation({
    summary: "The session's diff against its base branch, file by file, uncommitted work included",
  })
  diff(@Param('id') id: string): Promise<SessionDiff> {
    return this.diffs.diff(id);
  }
}
