import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeys } from './api-keys.service';

/** Orgs (the installation starts with one) and their API keys; `ApiKeys.authenticate`. */
@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeys],
  exports: [ApiKeys],
})
export class ApiKeysModule {}
