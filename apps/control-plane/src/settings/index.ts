export { SettingsModule } from './settings.module';
export { SettingsService } from './settings.service';
export { PolicyService } from './policy/policy.service';
export { CredentialsService } from './credentials/credentials.service';
export { MASK, maskSecrets } from './credentials/secret-masker';
