// The command line as a library (`tritonc/cli`): run tritonc with arguments and streams of your own.
export { runCli } from './main.js';
export type { CliIO } from './io.js';
