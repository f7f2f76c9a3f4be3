// Replaced at build time by the bundler; the source fallback is read by tests.
declare const __TRITONC_VERSION__: string | undefined;
export const VERSION: string = typeof __TRITONC_VERSION__ === 'string' ? __TRITONC_VERSION__ : '0.0.0-dev';
