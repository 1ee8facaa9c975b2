export { SessionsModule } from './sessions.module';
export { SessionsService } from './sessions.service';
export { WhoAmIBuilder } from './whoami.builder';
export { SessionFileSync } from './session-file-sync';
