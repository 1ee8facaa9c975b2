export { LoggingModule } from './logging.module';
export { REDACTED_HEADERS } from './log-options';
