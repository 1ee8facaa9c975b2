/**
 * The tool kit every MCP server of Sessionboxer is built with: a tool as data (ToolDefinition,
 * defineTool), the one strict input rule, the call parser and its error, and the handler
 * registry through which the owning module answers each tool.
 */
export * from './tool';
export * from './strict-input';
export * from './call-error';
export * from './call-parser';
export * from './define-tool';
export * from './handlers';
export * from './fields';
