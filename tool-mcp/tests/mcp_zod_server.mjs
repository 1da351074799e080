// An MCP server on the official TypeScript SDK, over stdio, whose tools take what zod writes for
// the types MCP servers commonly take (records of anything, tuples, unions, a tagged union,
// literals, bounds, formats, defaults), for tests/remote_schemas.rs.
//
//     node mcp_zod_server.mjs

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "zod", version: "1.0.0" });

server.registerTool(
  "search",
  {
    description: "Searches the index.",
    inputSchema: {
      query: z.string().min(1).max(200).describe("What to look for."),
      metadata: z.record(z.string(), z.any()).optional(),
      labels: z.record(z.string(), z.string()).default({}),
      rows: z.array(z.any()).optional(),
      point: z.tuple([z.number(), z.number()]).optional(),
      limit: z.number().int().positive().max(100).default(10),
      mode: z.enum(["fast", "exact"]).default("fast"),
      owner: z.string().email().nullable().optional(),
      since: z.string().datetime().optional(),
      site: z.string().url().optional(),
      value: z.union([z.string(), z.number()]).optional(),
    },
  },
  async () => ({ content: [{ type: "text", text: "found" }] }),
);

server.registerTool(
  "pet_add",
  {
    description: "Adds a pet.",
    inputSchema: {
      pet: z.discriminatedUnion("kind", [
        z.object({ kind: z.literal("cat"), lives: z.number().int().min(0).max(9) }),
        z.object({ kind: z.literal("dog"), good: z.boolean().default(true) }),
      ]),
    },
  },
  async ({ pet }) => ({ content: [{ type: "text", text: pet.kind }] }),
);

await server.connect(new StdioServerTransport());
