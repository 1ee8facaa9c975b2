import { Module } from '@nestjs/common';
import { AgentModule } from '../agent';
import { BoxesModule } from '../boxes';
import { McpRegistryModule } from '../mcp-registry';
import { SessionsModule } from '../sessions';
import { SettingsModule } from '../settings';
import { BoxGateway } from './box.gateway';
import { CallService } from './call.service';
import { DesktopCalls } from './desktop-calls';

/**
 * The gateway box daemons connect to: every frame bound to its socket's session, tool calls
 * run through their handlers, agent output and Terminal frames taken as the daemon's state
 * allows.
 */
@Module({
  imports: [AgentModule, BoxesModule, McpRegistryModule, SessionsModule, SettingsModule],
  providers: [BoxGateway, CallService, DesktopCalls],
  exports: [CallService],
})
export class GatewayModule {}
