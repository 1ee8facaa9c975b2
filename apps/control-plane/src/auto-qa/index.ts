export { AutoQaModule } from './auto-qa.module';
export { Verifications } from './verifications.service';
