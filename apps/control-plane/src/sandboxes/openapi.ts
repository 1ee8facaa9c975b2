import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { z } from 'zod';
import { SESSIONBOXER_VERSION } from '../version';
import { SANDBOX_TOOLS } from './tools';

const error = {
  description: 'Refused: { error: <spec code>, message }',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { error: { type: 'string' }, message: { type: 'string' } },
        required: ['error', 'message'],
      },
    },
  },
};

/** The OpenAPI document of /v1, built from the very zod schemas the MCP tools use. */
export function sandboxOpenApi() {
  const paths = Object.fromEntries(
    SANDBOX_TOOLS.map((tool) => [
      `/v1/${tool.name}`,
      {
        post: {
          operationId: tool.name,
          summary: tool.title,
          description: tool.description,
          security: [{ apiKey: [] }],
          'x-scope': tool.scope,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: toJsonSchemaCompat(z.object(tool.input).strict()) },
            },
          },
          responses: {
            '200': { description: "The tool's answer, as over MCP" },
            '400': error,
            '401': error,
            '403': error,
            '404': error,
            '409': error,
          },
        },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Sessionboxer sandbox API', version: SESSIONBOXER_VERSION },
    components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
    paths,
  };
}
