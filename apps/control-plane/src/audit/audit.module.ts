import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings';
import { ExportController } from './export.controller';
import { PolicyReplayController } from './policy-replay.controller';

/** For auditors: a session's redacted audit bundle, and policy replay over the history. */
@Module({
  imports: [SettingsModule],
  controllers: [ExportController, PolicyReplayController],
})
export class AuditModule {}
