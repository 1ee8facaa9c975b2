export { SchedulesModule } from './schedules.module';
