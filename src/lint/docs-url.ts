// Where a rule's documentation page is published: SARIF helpUri and terminal links point here. The
// pages are docs/rules/<id>.md of the repository package.json names (and of the npm package); the
// address is derived from that field, so it moves with the project. Without a GitHub repository
// there, the page inside the installed package is linked instead, which exists wherever tritonc runs.
import { readFileSync } from 'node:fs';

// This module sits two levels below the package root in src/lint/, one in the bundles of dist/.
const PACKAGE_JSON = [new URL('../../package.json', import.meta.url), new URL('../package.json', import.meta.url)];

interface PackageHome {
  /** https://github.com/OWNER/REPO, when package.json names a GitHub repository. */
  github?: string;
  /** The package.json tritonc runs from. */
  packageJson: URL;
}

let home: PackageHome | undefined;

function packageHome(): PackageHome {
  if (home) return home;
  for (const url of PACKAGE_JSON) {
    const pkg = readPackage(url);
    if (pkg?.name !== 'tritonc') continue;
    const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    const m = repo && /github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(repo);
    return (home = { packageJson: url, ...(m ? { github: `https://github.com/${m[1]}/${m[2]}` } : {}) });
  }
  return (home = { packageJson: PACKAGE_JSON[0]! });
}

function readPackage(url: URL): { name?: string; repository?: string | { url?: string } } | undefined {
  try {
    return JSON.parse(readFileSync(url, 'utf8')) as { name?: string; repository?: string | { url?: string } };
  } catch {
    return undefined;
  }
}

/** The project's home page: its GitHub repository, or the installed package's README. */
export const projectUrl = (): string => packageHome().github ?? new URL('README.md', packageHome().packageJson).href;

/** Where docs/rules/ is published: on GitHub's main branch, or in the installed package. */
export function ruleDocsBaseUrl(): string {
  const { github, packageJson } = packageHome();
  return github ? `${github}/blob/main/docs/rules/` : new URL('docs/rules/', packageJson).href;
}

export const ruleDocsUrl = (id: string): string => `${ruleDocsBaseUrl()}${id}.md`;
