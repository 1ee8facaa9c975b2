export { ApiKeysModule } from './api-keys.module';
export { ApiKeys, type KeyIdentity } from './api-keys.service';
