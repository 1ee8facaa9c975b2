export { UiSocketModule } from './ui-socket.module';
