export { HistoryModule } from './history.module';
