export { RepositoriesModule } from './repositories.module';
export { Repositories } from './repositories.service';
