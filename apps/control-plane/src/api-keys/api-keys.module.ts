import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeys } from './api-keys.service';
import { CliLoginController } from './cli-login.controller';
import { CliLogins } from './cli-logins.service';

/** Orgs (the installation starts with one), their API keys (`ApiKeys.authenticate`), CLI logins. */
@Module({
  controllers: [ApiKeysController, CliLoginController],
  providers: [ApiKeys, CliLogins],
  exports: [ApiKeys],
})
export class ApiKeysModule {}
