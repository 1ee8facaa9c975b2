export { PresenceModule } from './presence.module';
export { UiPresence } from './ui-presence';
export * from './ui-frames';
