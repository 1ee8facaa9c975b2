import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { SessionsModule } from '../sessions';
import { SettingsModule } from '../settings';
import { AutoQa } from './auto-qa';
import { VerificationsController } from './verifications.controller';
import { Verifications } from './verifications.service';
import { VerifyTools } from './verify.tools';

/** Auto QA: verification runs the agent opens and plays out, and the prompt after a turn. */
@Module({
  imports: [AgentModule, SessionsModule, SettingsModule],
  controllers: [VerificationsController],
  providers: [Verifications, AutoQa, VerifyTools],
  exports: [Verifications],
})
export class AutoQaModule {}
