import { Module } from '@nestjs/common';
import { InboxController } from './inbox.controller';
import { InboxService } from './inbox.service';

/** One inbox of what needs a person across sessions, with read state per person. */
@Module({ controllers: [InboxController], providers: [InboxService], exports: [InboxService] })
export class InboxModule {}
