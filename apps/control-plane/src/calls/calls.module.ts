import { Global, Module } from '@nestjs/common';
import { CallHandlers } from './call-handlers';

/** The tool handler registries every feature registers into (global: every module has tools). */
@Global()
@Module({ providers: [CallHandlers], exports: [CallHandlers] })
export class CallsModule {}
