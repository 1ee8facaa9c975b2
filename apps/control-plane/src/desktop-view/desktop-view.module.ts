import { Module } from '@nestjs/common';
import { AuthModule } from '../auth';
import { BoxesModule } from '../boxes';
import { DesktopViewGateway } from './desktop-view.gateway';
import { DesktopViewSockets } from './desktop-view-sockets';

/** The live desktop view of a session's box: noVNC in the page, x11vnc in the box (docs/web-ui.md). */
@Module({ imports: [AuthModule, BoxesModule], providers: [DesktopViewGateway, DesktopViewSockets] })
export class DesktopViewModule {}
