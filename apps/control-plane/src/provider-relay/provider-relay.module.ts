import { Module } from '@nestjs/common';
import { EgressModule } from '../egress';
import { SettingsModule } from '../settings';
import { ProviderRelay } from './provider-relay.service';

/** The model providers' relays on the boxes' edge, and what a box holds instead of a key. */
@Module({
  imports: [EgressModule, SettingsModule],
  providers: [ProviderRelay],
  exports: [ProviderRelay],
})
export class ProviderRelayModule {}
