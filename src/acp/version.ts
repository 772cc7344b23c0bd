/** The Agentic Commerce Protocol release this service implements (docs/acp.md). */
export const ACP_VERSION = '2026-04-17';
