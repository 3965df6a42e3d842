/** The command line's help, as `--help` and a configuration mistake print it. */
import {
  API_KEY_VARIABLE,
  BASE_URL_VARIABLE,
  CONFIRMATION_SECRET_VARIABLE,
  DEFAULT_DEADLINE_SECONDS,
  DEFAULT_MAX_WAIT_SECONDS,
  INDEX_FILE_VARIABLE,
  PUBLIC_URL_VARIABLE,
  SIGN_IN_SECRET_VARIABLE,
  STORE_VARIABLE,
  TOKEN_VARIABLE,
  TRUSTED_PROXY_VARIABLE,
} from "./command-line";

export const USAGE = `Usage: linkshort-mcp [--admin] [--max-wait SECONDS] [--deadline SECONDS] [--index-file PATH]
                     [--http PORT [--host HOST] [--allowed-host NAME]... [--token-file PATH | --sign-in [--public-url URL] [--trusted-proxy LIST]] [--store URL]]

An MCP server for a Link-Shortening Service API v3 (LinkShort) account. Configuration:
  ${BASE_URL_VARIABLE}   the service's address, e.g. https://short.example.com (required)
  ${API_KEY_VARIABLE}    the account's API key (required)

  --http PORT           serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --host HOST           the address to bind with --http (default 127.0.0.1); beyond loopback
                        (e.g. 0.0.0.0 in a container) only with a bearer token
  --allowed-host NAME   a host name clients may address besides localhost, 127.0.0.1 and [::1]
                        (e.g. mcp.team.example); repeat for several
  --token-file PATH     the bearer token every HTTP request must carry, read from this file
  ${TOKEN_VARIABLE}   the same token from the environment (the file wins)
  --sign-in             everyone signs in as themselves, with their own API key: by OAuth (the server is
                        its own authorization server; the sign-in page asks for the key) or with the key
                        in the X-LinkShort-Api-Key header. ${API_KEY_VARIABLE} is then not used.
  --public-url URL      with --sign-in, the address people reach the server at, e.g.
                        https://mcp.team.example (https beyond this machine; default http://HOST:PORT)
  ${PUBLIC_URL_VARIABLE}  the same address from the environment (the flag wins)
  --trusted-proxy LIST  with --sign-in, the proxies in front (addresses or CIDR ranges, comma-separated, e.g.
                        172.30.53.2 or 10.0.0.0/8): a request from one of them counts as from the address
                        its X-Forwarded-For names (the right-most hop that is no trusted proxy); without it
                        the header is ignored and the bounds on wrong keys count the proxy's address
  ${TRUSTED_PROXY_VARIABLE}  the same list from the environment (the flag wins)
  ${SIGN_IN_SECRET_VARIABLE}  signs the tokens and wraps the keys (32+ bytes, hex or base64;
                        default random, so a restart signs everyone out)
  --store URL           with --http, keep the state in Postgres (postgres://user:password@host/db): the sign-ins,
                        each account's link index, which replica sweeps it, and each key's rate budget, so
                        that replicas share them and a restart keeps them (default: this process's memory)
  ${STORE_VARIABLE}   the same URL from the environment (the flag wins)
  --admin               also offer the administrators' tools (plans, users)
  --max-wait SECONDS    longest wait for the rate limit before a tool answers "retry after N s" (default ${DEFAULT_MAX_WAIT_SECONDS})
  --deadline SECONDS    longest a tool call may take before it answers with an error (default ${DEFAULT_DEADLINE_SECONDS})
  --index-file PATH     keep the index of the account's links that find_links searches in this file, so a
                        restart does not read the account again (default: memory; the desktop bundle
                        keeps it in ~/.linkshort-mcp/link-index.json); the clicks sampled for
                        get_link's clicks over time are kept beside it, in PATH.clicks.json, and the
                        secret that signs update_links' and delete_links' previews in its folder
                        (confirmation.secret), so that a server started per call takes the previous one's
  ${INDEX_FILE_VARIABLE}  the same path from the environment (the flag wins)
  ${CONFIRMATION_SECRET_VARIABLE}  that secret from the environment instead (32+ bytes, hex or base64)
`;
