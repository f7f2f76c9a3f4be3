// The verify runtimes, in the order --help lists them (the first is the default).
import { DOCKER_RUNTIME } from './docker.js';
import { LOCAL_RUNTIME } from './local.js';
import { ORT_RUNTIME } from './ort.js';
import type { VerifyRuntime } from './runtime.js';
import { SERVER_RUNTIME } from './server.js';

export const RUNTIMES: readonly VerifyRuntime[] = [ORT_RUNTIME, DOCKER_RUNTIME, LOCAL_RUNTIME, SERVER_RUNTIME];
