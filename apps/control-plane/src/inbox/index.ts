export { InboxModule } from './inbox.module';
