export { DesktopViewModule } from './desktop-view.module';
