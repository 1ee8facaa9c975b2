import { Body, Controller, Delete, Get, Param, Patch, Put } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import { object, onlyKeys } from '@sessionboxer/domain/kernel/validation';
import { IdempotencyKey, RequestActor } from '../auth';
import type { SettingsView } from '@sessionboxer/contracts';
import { SettingsService } from './settings.service';

/** Global settings for operators. Secrets can be set here but are never read back. */
@ApiTags('settings')
@Controller('api/settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @ApiOperation({ summary: 'The settings, with every secret-shaped value removed' })
  get(): Promise<SettingsView> {
    return this.settings.view();
  }

  @Patch()
  @ApiOperation({
    summary: 'Change settings: sections merge field by field; null clears a secret',
  })
  @ApiBody({ schema: { type: 'object', example: { github: { token: 'ghp_…', pollSeconds: 60 } } } })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  update(
    @Body() patch: unknown,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<SettingsView> {
    return this.settings.update(patch, actor, key);
  }

  @Put('mcp-registry/relays/:relay')
  @ApiOperation({
    summary:
      "Give sessions' agents one of Sessionboxer's outside MCP servers (terminals), or take it back",
  })
  @ApiBody({ schema: { type: 'object', example: { given: true } } })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  giveRelayed(
    @Param('relay') relay: string,
    @Body() body: unknown,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<SettingsView> {
    const o = object(body, 'body');
    onlyKeys(o, '', ['given']);
    return this.settings.giveRelayedServer(relay, o.given, actor, key);
  }

  @Put('mcp-registry/servers/:name')
  @ApiOperation({
    summary:
      'Add or replace one MCP server every session gets (env values null keep the current ones)',
  })
  @ApiBody({
    schema: {
      type: 'object',
      example: { command: ['npx', '-y', 'mcp-postgres'], env: { PGPASSWORD: null } },
    },
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  putServer(
    @Param('name') name: string,
    @Body() body: unknown,
    @RequestActor() actor: Actor,
    @IdempotencyKey() key?: string,
  ): Promise<SettingsView> {
    const o = object(body, 'body');
    onlyKeys(o, '', ['command', 'env']);
    return this.settings.putMcpServer({ name, command: o.command, env: o.env ?? {} }, actor, key);
  }

  @Delete('mcp-registry/servers/:name')
  @ApiOperation({ summary: 'Take one MCP server out of the registry' })
  removeServer(@Param('name') name: string, @RequestActor() actor: Actor): Promise<SettingsView> {
    return this.settings.removeMcpServer(name, actor);
  }
}
