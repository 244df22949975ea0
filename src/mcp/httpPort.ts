/** The port `mcp --http` listens on unless told otherwise. */
export const DEFAULT_HTTP_PORT = 7420;
