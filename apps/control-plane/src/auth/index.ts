export { AuthModule } from './auth.module';
export { AuthService } from './auth.service';
export { Public } from './public.decorator';
export { SIGNED_IN, type SignedInRequest } from './auth.guard';
export { IdempotencyKey, RequestActor } from './request-actor';
