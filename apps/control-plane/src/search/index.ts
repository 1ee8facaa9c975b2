export { SearchModule } from './search.module';
