// npm's `prepare`: builds dist/ when tritonc is installed from git or a directory (npm install -g
// git+https://..., pre-commit 4's `language: node` hooks, which run `npm install -g git+file://<clone>`).
// For a git dependency npm installs the clone's dependencies and runs this; in a global install that
// install inherits --global and leaves out the devDependencies (npm 11.19: the clone gets no
// node_modules at all), so esbuild is missing. Then the clone gets the dependencies and the one build
// tool, esbuild, at the version package.json pins (scripts skipped: this script is the clone's own
// `prepare`), and dist/ is built without the type declarations, which need TypeScript and the optional
// storage clients' types: a command-line install has no use for them, and the npm package has them.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const root = new URL('..', import.meta.url);
const has = (name) => existsSync(new URL(`node_modules/${name}/package.json`, root));
const devTools = ['esbuild', 'typescript'];
/**
 * The environment for an install into the clone itself: npm gives this script the outer install's
 * config as npm_config_* variables, --global and the global prefix among them (npm 11.19:
 * npm_config_global=true, npm_config_local_prefix=<global prefix>), which would send the install
 * there again. The rest (cache, registry, certificates) is kept.
 */
function projectEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_config_(global|location|prefix|local_prefix|global_prefix)$/i.test(key)) delete env[key];
  }
  return env;
}
const complete = [...devTools, ...Object.keys(pkg.dependencies)].every(has);

if (!complete) {
  console.error('tritonc prepare: the build tools are not installed (an install from git without devDependencies): installing esbuild for the build');
  const npm = process.env.npm_execpath;
  const cmd = npm ? [process.execPath, [npm]] : ['npm', []];
  execFileSync(
    cmd[0],
    [
      ...cmd[1],
      'install',
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--omit=dev',
      '--include=optional',
      '--no-audit',
      '--no-fund',
      `esbuild@${pkg.devDependencies.esbuild}`,
    ],
    { cwd: root, env: projectEnv(), stdio: ['ignore', 'inherit', 'inherit'] },
  );
}
execFileSync(process.execPath, ['scripts/build.mjs', ...(complete ? [] : ['--no-types'])], { cwd: root, stdio: 'inherit' });
