// Which credential Triton would use for a repository URL, read the way core reads it
// (src/filesystem/api.cc LoadCredentials / GetLongestMatchingNameIndex, and each file system's
// credential constructor): TRITON_CLOUD_CREDENTIAL_PATH's JSON when it is set (then the environment
// is not read at all), else the environment. Every credential says where it came from, so an
// "access denied" can name the source that was used.
import type { RemoteLocation, RemoteScheme } from './url.js';

export interface S3Credential {
  keyId?: string;
  secretKey?: string;
  sessionToken?: string;
  region?: string;
  profile?: string;
}

export interface GcsCredential {
  /** A credential JSON file (authorized user or service account). */
  file?: string;
}

export interface AzureCredential {
  /** Overrides the account of the URL when set (as.h: account_str wins over the path's host). */
  account?: string;
  key?: string;
  /** 'key' (default with a key), 'managed_identity' or 'default'. */
  authType?: string;
  clientId?: string;
}

export type Credential =
  | { scheme: 's3'; s3: S3Credential; source: string }
  | { scheme: 'gs'; gs: GcsCredential; source: string }
  | { scheme: 'as'; as: AzureCredential; source: string };

export class CredentialError extends Error {}

export interface CredentialEnv {
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a local file's text; throws with a reason. */
  readFile: (path: string) => string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The credential for `loc`. `given` is the URL as the user wrote it: Triton matches credential
 * names as a plain prefix of that text (no '/' boundary, so "s3://bucket" also matches
 * "s3://bucket-2/...").
 */
export function credentialFor(loc: RemoteLocation, given: string, { env, readFile }: CredentialEnv): Credential {
  const file = str(env.TRITON_CLOUD_CREDENTIAL_PATH);
  if (file) return fromCredentialFile(loc.scheme, given, file, readFile);
  return fromEnvironment(loc.scheme, env);
}

function fromCredentialFile(scheme: RemoteScheme, given: string, file: string, readFile: CredentialEnv['readFile']): Credential {
  let json: unknown;
  try {
    json = JSON.parse(readFile(file));
  } catch (e) {
    throw new CredentialError(`TRITON_CLOUD_CREDENTIAL_PATH=${file}: ${e instanceof SyntaxError ? `not JSON (${e.message})` : (e as Error).message}`);
  }
  const section = (json as Record<string, unknown> | null)?.[scheme];
  const names = section && typeof section === 'object' ? Object.keys(section) : [];
  // api.cc SortCache: longest name first; the first that starts the path wins.
  const name = [...names].sort((a, b) => b.length - a.length).find((n) => given.startsWith(n));
  if (name === undefined) {
    const known = names.length ? `its "${scheme}" names are ${names.map((n) => JSON.stringify(n)).join(', ')}` : `it has no "${scheme}" section`;
    throw new CredentialError(
      `TRITON_CLOUD_CREDENTIAL_PATH=${file}: no credential matches ${given} (Triton: "Cannot match credential for path"); ${known}. Add an entry whose name starts the URL, or "" for every path`,
    );
  }
  const entry = (section as Record<string, unknown>)[name];
  const source = `TRITON_CLOUD_CREDENTIAL_PATH=${file}, entry ${JSON.stringify(name)} of "${scheme}"`;
  const o = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
  switch (scheme) {
    case 's3':
      // s3.h S3Credential(json): secret_key, key_id, region, session_token, profile.
      return {
        scheme,
        source,
        s3: pick({ keyId: str(o.key_id), secretKey: str(o.secret_key), sessionToken: str(o.session_token), region: str(o.region), profile: str(o.profile) }),
      };
    case 'gs':
      // gcs.h GCSCredential(json): the value is the path of a credential file.
      if (typeof entry !== 'string') throw new CredentialError(`${source}: Triton takes a string here, the path of a Google credential JSON file`);
      return { scheme, source, gs: pick({ file: str(entry) }) };
    case 'as':
      // as.h ASCredential(json): account_str, account_key, auth_type, client_id.
      return { scheme, source, as: pick({ account: str(o.account_str), key: str(o.account_key), authType: str(o.auth_type), clientId: str(o.client_id) }) };
  }
}

function fromEnvironment(scheme: RemoteScheme, env: CredentialEnv['env']): Credential {
  switch (scheme) {
    case 's3': {
      // s3.h S3Credential(): the key pair, else AWS_PROFILE, else the profile "default".
      const s3 = pick({
        keyId: str(env.AWS_ACCESS_KEY_ID),
        secretKey: str(env.AWS_SECRET_ACCESS_KEY),
        sessionToken: str(env.AWS_SESSION_TOKEN),
        region: str(env.AWS_DEFAULT_REGION),
        profile: str(env.AWS_PROFILE),
      });
      const source =
        s3.keyId && s3.secretKey
          ? 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY'
          : s3.profile
            ? `the AWS profile "${s3.profile}" (AWS_PROFILE)`
            : 'the AWS profile "default" (no AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_PROFILE set)';
      return { scheme, s3, source };
    }
    case 'gs': {
      const file = str(env.GOOGLE_APPLICATION_CREDENTIALS);
      return {
        scheme,
        gs: pick({ file }),
        source: file ? `GOOGLE_APPLICATION_CREDENTIALS=${file}` : 'Google application default credentials (GOOGLE_APPLICATION_CREDENTIALS is not set)',
      };
    }
    case 'as': {
      // as.h ASCredential(): a key with no auth type means "key".
      const as = pick({
        account: str(env.AZURE_STORAGE_ACCOUNT),
        key: str(env.AZURE_STORAGE_KEY),
        authType: str(env.AZURE_STORAGE_AUTH_TYPE),
        clientId: str(env.AZURE_STORAGE_CLIENT_ID),
      });
      const source = as.key
        ? 'AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY'
        : as.authType
          ? `AZURE_STORAGE_AUTH_TYPE=${as.authType}`
          : 'no Azure credential (AZURE_STORAGE_KEY is not set): anonymous access';
      return { scheme, as, source };
    }
  }
}

function pick<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
