import { Module } from '@nestjs/common';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { FileCredentialVault } from './credentials/credential-vault';
import { CredentialsController } from './credentials/credentials.controller';
import { CREDENTIAL_VAULT, CredentialsService } from './credentials/credentials.service';
import { PolicyController } from './policy/policy.controller';
import { PolicyService } from './policy/policy.service';
import { SettingsController } from './settings.controller';
import { FileSecretStore } from './secrets/file-secret-store';
import { SETTINGS_SECRETS, SettingsService } from './settings.service';
import { SettingsTools } from './settings.tools';

/** Global settings, each session's sessionboxer policy, and the agents' credentials. */
@Module({
  controllers: [SettingsController, PolicyController, CredentialsController],
  providers: [
    SettingsService,
    PolicyService,
    {
      provide: CREDENTIAL_VAULT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new FileCredentialVault(config.dataDir),
    },
    {
      provide: SETTINGS_SECRETS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new FileSecretStore(config.dataDir),
    },
    CredentialsService,
    SettingsTools,
  ],
  exports: [SettingsService, PolicyService, CredentialsService],
})
export class SettingsModule {}
