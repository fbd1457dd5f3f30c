/**
 * Most connections per origin for requests other than event streams, unless told otherwise:
 * the client's request pool (api/options.ts), and what runs in flight hold of open files
 * beside their streams (runner/descriptor-fit.ts). A leaf, so counting open files loads no client.
 */
export const DEFAULT_REQUEST_CONNECTIONS = 256;
