export { PushModule } from './push.module';
