// tritonserver flags whose default changed between releases, as the clients and load tests that meet
// them need to know.
import { holdsIn, type Releases, type TritonRelease } from './catalog.js';
import type { ReleaseChange } from './changes.js';

/**
 * Client shared memory off unless the server is started with --allow-client-shm=true: server
 * src/command_line_parser.cc @ r26.04 (OPTION_ALLOW_CLIENT_SHM, "Default is false"; command_line_parser.h
 * allow_client_shm_{false}), commit d78c99c17 "Disable client shared memory by default"; r26.03 has no
 * such flag. Every register call of the system and CUDA shared-memory APIs, HTTP and gRPC, then fails
 * (src/http_server.cc, src/grpc/grpc_server.cc: TRITONSERVER_ERROR_UNSUPPORTED) with CLIENT_SHM_DISABLED.
 */
export const CLIENT_SHM_OPT_IN: Releases = { since: '26.04' };

/** The error a client's shared-memory registration gets from such a server (server src/common.h @ r26.04 kClientShmDisabledErrorStr). */
export const CLIENT_SHM_DISABLED = "Client shared memory is disabled. Start the server with '--allow-client-shm=true' to enable.";

/** Whether `release`'s tritonserver refuses client shared memory unless started with --allow-client-shm=true. */
export function clientShmNeedsOptIn(release: TritonRelease): boolean {
  return holdsIn(CLIENT_SHM_OPT_IN, release);
}

export const SERVER_FLAG_CHANGES: readonly ReleaseChange[] = Object.freeze([
  {
    area: 'server',
    what: 'client shared memory (system and CUDA) is off unless tritonserver is started with --allow-client-shm=true: registering a region fails with "Client shared memory is disabled. Start the server with \'--allow-client-shm=true\' to enable."',
    releases: CLIENT_SHM_OPT_IN,
    source: 'triton-inference-server/server src/command_line_parser.cc, src/common.h @ r26.04 (commit d78c99c17); r26.03 has no --allow-client-shm',
  },
]);
