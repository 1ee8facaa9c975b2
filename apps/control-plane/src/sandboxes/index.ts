export { SandboxesModule } from './sandboxes.module';
export { Sandboxes } from './sandboxes.service';
export { sandboxApiBody } from './sandbox-api-body';
