// npm's `prepare`: builds dist/ when tritonc is installed from git or a directory (npm install -g
// git+https://..., pre-commit 4's `language: node` hooks, which run `npm install -g git+file://<clone>`).
// For a git dependency npm installs the clone's dependencies and runs this; in a global install that
// install inherits --global (npm 11.19 gives it npm_config_global=true and the global prefix), so the
// clone gets no node_modules at all, and esbuild, a devDependency, is missing. Then the clone gets
// its dependencies (what the bundle holds), esbuild at the version package.json pins goes to a
// temporary directory of its own (scripts skipped: this script is the clone's own `prepare`), and
// dist/ is built without the type declarations, which need TypeScript and the optional storage
// clients' types: a command-line install has no use for them, and the npm package has them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const has = (name) => existsSync(join(root, 'node_modules', name, 'package.json'));

/**
 * The environment for an install into the clone itself. npm gives this script the outer installs'
 * flags as npm_config_* variables (npm 11.19: global=true and the global prefix from `npm install -g`,
 * include=dev and force from the install it runs in the clone), which would send the install to
 * the global prefix again, or fetch every devDependency. Only where and how to fetch is kept: the
 * registry and its credentials, certificates, proxies, the cache, the user's and the global npmrc.
 */
function projectEnv() {
  const env = { ...process.env };
  const fetching = /registry|_auth|token|cafile|^ca$|cert|^key$|ssl|proxy|offline|online|^fetch_|^cache|userconfig|globalconfig|loglevel|node_gyp|user_agent/i;
  for (const key of Object.keys(env)) {
    const m = /^npm_config_(.*)$/i.exec(key);
    if (m && !fetching.test(m[1])) delete env[key];
  }
  return env;
}

/** npm, as the one running this script (npm_execpath), else from PATH. */
function npm(args, cwd) {
  const cli = process.env.npm_execpath;
  const [file, pre] = cli && cli.endsWith('.js') ? [process.execPath, [cli]] : ['npm', []];
  execFileSync(file, [...pre, ...args, '--no-audit', '--no-fund', '--ignore-scripts'], { cwd, env: projectEnv(), stdio: ['ignore', 2, 2] });
}

if (['esbuild', 'typescript', ...Object.keys(pkg.dependencies)].every(has)) {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
} else {
  // On stderr only: npm pack prints the tarball's name on stdout, which pre-commit 3 reads.
  console.error('tritonc prepare: installed without its devDependencies (npm install -g from git): installing the dependencies and esbuild for the build');
  // From the committed package-lock.json: the versions tested, and no registry look-ups to resolve them.
  npm(['ci', '--omit=dev'], root);
  const tools = mkdtempSync(join(tmpdir(), 'tritonc-build-'));
  try {
    npm(['install', '--prefix', tools, '--no-save', '--no-package-lock', `esbuild@${pkg.devDependencies.esbuild}`], tools);
    const esbuild = join(tools, 'node_modules', 'esbuild', 'lib', 'main.js');
    execFileSync(process.execPath, ['scripts/build.mjs', '--no-types'], { cwd: root, env: { ...process.env, TRITONC_ESBUILD: esbuild }, stdio: 'inherit' });
  } finally {
    rmSync(tools, { recursive: true, force: true });
  }
}
