export {
  MAX_MCP_COMMAND_CHARACTERS,
  MAX_MCP_SERVER_NAME_CHARACTERS,
  MAX_MCP_SERVERS,
  MCP_SERVER_NAME_PATTERN,
  type McpServerDeclaration,
  McpServerDeclarationSchema,
  type McpServerDeclarations,
  McpServerDeclarationsSchema,
  mcpToolName,
  PROVIDER_TOOL_NAME_PATTERN,
} from './mcp-server-declarations.ts';
