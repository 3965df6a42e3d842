/** "deployed" answers as real servers do (docs/deployed-servers.md); "document" exactly as docs/api.md describes. */
export type Mode = "deployed" | "document";
