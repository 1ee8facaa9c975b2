import { Module } from '@nestjs/common';
import { UiPresence } from './ui-presence';

/** Which browsers watch which session, and whether their person is typing. */
@Module({ providers: [UiPresence], exports: [UiPresence] })
export class PresenceModule {}
