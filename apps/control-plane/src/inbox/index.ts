export { InboxModule } from './inbox.module';
export { InboxService } from './inbox.service';
