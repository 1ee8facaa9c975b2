export { CallsModule } from './calls.module';
export { CallHandlers } from './call-handlers';
export { callContext } from './call-context';
