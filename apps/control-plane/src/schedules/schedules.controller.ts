import { Body, Controller, Delete, Get, HttpCode, Param, Patch } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import type { ScheduleListing } from '@sessionboxer/mcp-adapters';
import { IsBoolean } from 'class-validator';
import { RequestActor } from '../common/request-actor';
import { Schedules } from './schedules.service';

export class SetScheduleEnabledDto {
  @ApiProperty({ description: 'false stops its runs until it is enabled again' })
  @IsBoolean()
  enabled!: boolean;
}

/** The Scheduled tasks page's API: every schedule, on/off, delete. */
@ApiTags('schedules')
@Controller('api/schedules')
export class SchedulesController {
  constructor(private readonly schedules: Schedules) {}

  @Get()
  @ApiOperation({ summary: 'Every scheduled task, with nextRunAt and lastRunAt' })
  list(): ScheduleListing[] {
    return this.schedules.list();
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Enable or disable a scheduled task' })
  setEnabled(
    @Param('id') id: string,
    @Body() body: SetScheduleEnabledDto,
    @RequestActor() actor: Actor,
  ): Promise<ScheduleListing> {
    return this.schedules.setEnabled(id, body.enabled, actor);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a scheduled task: it never runs again' })
  remove(@Param('id') id: string, @RequestActor() actor: Actor): Promise<void> {
    return this.schedules.remove(id, actor);
  }
}
