export { DesktopViewModule } from './desktop-view.module';
export { relayDesktopView } from './desktop-view-relay';
export { recordViewOpened } from './desktop-view-record';
