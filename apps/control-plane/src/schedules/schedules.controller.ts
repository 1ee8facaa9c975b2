import { Body, Controller, Delete, Get, HttpCode, Param, Patch } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@sessionboxer/domain';
import {
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { RequestActor } from '../auth';
import type { ScheduleView } from '@sessionboxer/contracts';
import { Schedules } from './schedules.service';

/** A field of a change: true or false when given; a body that gives neither field is refused. */
@ValidatorConstraint({ name: 'scheduleChange' })
class ScheduleChangeField implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'boolean';
  }

  defaultMessage(args: ValidationArguments): string {
    return args.value === undefined
      ? 'the body must set enabled, skipMissed or both (it changes nothing)'
      : `${args.property} must be true or false`;
  }
}

export class ChangeScheduleDto {
  @ApiPropertyOptional({ description: 'false stops its runs until it is enabled again' })
  // Checked when given, and when skipMissed is left out too: then the body changes nothing.
  @ValidateIf((o: ChangeScheduleDto, v) => v !== undefined || o.skipMissed === undefined)
  @Validate(ScheduleChangeField)
  enabled?: boolean;

  @ApiPropertyOptional({
    description:
      'the skip policy: true skips the runs missed while Sessionboxer was down, false fires ' +
      'the latest missed one once at start',
  })
  @ValidateIf((_o, v) => v !== undefined)
  @Validate(ScheduleChangeField)
  skipMissed?: boolean;
}

/** The Scheduled tasks page's API: every schedule, on/off and its skip policy, delete. */
@ApiTags('schedules')
@Controller('api/schedules')
export class SchedulesController {
  constructor(private readonly schedules: Schedules) {}

  @Get()
  @ApiOperation({ summary: 'Every scheduled task, with skipMissed, nextRunAt and lastRunAt' })
  list(): ScheduleView[] {
    return this.schedules.list();
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Enable or disable a scheduled task, or change its skip policy (at least one)',
  })
  change(
    @Param('id') id: string,
    @Body() body: ChangeScheduleDto,
    @RequestActor() actor: Actor,
  ): Promise<ScheduleView> {
    const { enabled, skipMissed } = body;
    return this.schedules.change(id, { enabled, skipMissed }, actor);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a scheduled task: it never runs again' })
  remove(@Param('id') id: string, @RequestActor() actor: Actor): Promise<void> {
    return this.schedules.remove(id, actor);
  }
}
