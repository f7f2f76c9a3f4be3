// Triton's behaviour, for library users (re-exported by src/index.ts): the effective config's options
// and result, and its JSON form as Triton's model config API returns it.
export type { ResolveOptions, ResolveResult } from './effective-config.js';
export { tritonConfigJson } from './triton-json.js';
