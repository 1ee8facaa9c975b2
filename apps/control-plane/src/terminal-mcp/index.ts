export { TerminalMcpModule } from './terminal-mcp.module';
export { TerminalMcpServer } from './mcp/terminal-mcp-server';
export { TerminalClock } from './terminals/terminal-clock';
