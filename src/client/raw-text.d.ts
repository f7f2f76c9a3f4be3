// A `?raw` import is the file's text (src/client/runtime-text.ts; esbuild's raw-text plugin in
// scripts/build.mjs, vite's own under vitest).
declare module '*?raw' {
  const text: string;
  export default text;
}
