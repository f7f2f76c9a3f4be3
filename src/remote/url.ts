// Repository URLs read as Triton reads them (core src/filesystem/implementations/{s3,gcs,as}.h), so
// that tritonc opens the same bucket and prefix the server would, and says so when a URL does not
// mean what it looks like. Where Triton's reading is surprising (the first segment is the bucket;
// a custom S3 endpoint needs host:port; Azure's account can come from the environment), the parsed
// location says how Triton reads it, for every error about it.

export type RemoteScheme = 's3' | 'gs' | 'as';

export interface RemoteLocation {
  scheme: RemoteScheme;
  /** The URL as given, without trailing slashes: what findings name. */
  url: string;
  /** S3 and GCS bucket; Azure container. */
  bucket: string;
  /** The key prefix of the repository, '' for the bucket's root; never starts or ends with '/'. */
  prefix: string;
  /** S3 only: a custom endpoint (`s3://host:port/...`), with its scheme (http unless `s3://https://`). */
  endpoint?: string;
  /** Azure only: the storage account named in the URL. */
  account?: string;
  /** How Triton reads the URL, in words, for errors about it. */
  reading: string;
}

export class RemoteUrlError extends Error {
  constructor(
    readonly url: string,
    readonly problem: string,
  ) {
    super(`${url}: ${problem}`);
  }
}

const SCHEMES: readonly RemoteScheme[] = ['s3', 'gs', 'as'];

/** True for a path Triton hands to a cloud file system (core src/filesystem/api.cc GetFileSystem: a prefix at position 0, case-sensitive). */
export function isRemoteUrl(path: string): boolean {
  return SCHEMES.some((s) => path.startsWith(`${s}://`));
}

/** A URL that looks like one of Triton's but is not (wrong case, one slash), as Triton's form; Triton takes it as a local path. */
export function nearRemoteUrl(path: string): string | undefined {
  if (isRemoteUrl(path)) return undefined;
  const m = /^(s3|gs|as):\/*/i.exec(path);
  return m ? `${m[1]!.toLowerCase()}://${path.slice(m[0].length)}` : undefined;
}

export function parseRemoteUrl(url: string): RemoteLocation {
  if (url.startsWith('s3://')) return parseS3(url);
  if (url.startsWith('gs://')) return parseGcs(url);
  if (url.startsWith('as://')) return parseAzure(url);
  throw new RemoteUrlError(url, 'not a repository URL: Triton reads s3://, gs:// and as:// (lower case); anything else is a local path');
}

/** S3 bucket names (AWS "Bucket naming rules"): 3-63 characters of a-z, 0-9, '.', '-'. */
const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * s3.h CleanPath: `http(s)://` anywhere after `s3://` is moved to the front, leading and trailing
 * slashes are dropped and inner runs of slashes collapse to one.
 */
function cleanS3(url: string): { protocol: string; rest: string } {
  let rest = url.slice('s3://'.length);
  let protocol = '';
  for (const p of ['https://', 'http://']) {
    const at = rest.indexOf(p);
    if (at >= 0) {
      protocol = p;
      rest = rest.slice(0, at) + rest.slice(at + p.length);
      break;
    }
  }
  return { protocol, rest: rest.replace(/\/+/g, '/').replace(/^\/|\/$/g, '') };
}

/** s3.h's s3_regex_, on the cleaned path: protocol, host, port, bucket, then /segments. */
const S3_ENDPOINT = /^(http:\/\/|https:\/\/|)([0-9a-zA-Z\-.]+):([0-9]+)\/([0-9a-z.-]+)((?:\/[0-9a-zA-Z.\-_]+)*)$/;

function parseS3(url: string): RemoteLocation {
  const shown = url.replace(/\/+$/, '');
  const { protocol, rest } = cleanS3(url);
  if (!rest) throw new RemoteUrlError(shown, 'Triton refuses it ("Invalid bucket name"): there is no bucket; write s3://bucket/path/to/repository');
  const m = S3_ENDPOINT.exec(protocol + rest);
  if (m) {
    const [, proto, host, port, bucket, object] = m;
    const endpoint = `${proto === 'https://' ? 'https' : 'http'}://${host}:${port}`;
    const prefix = object!.replace(/^\//, '');
    return {
      scheme: 's3',
      url: shown,
      bucket: bucket!,
      prefix,
      endpoint,
      reading: `Triton reads it as bucket "${bucket}", key prefix "${prefix}", at the endpoint ${endpoint} (path-style)`,
    };
  }
  // Not the endpoint form: the first segment is the bucket, whatever it looks like.
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const prefix = slash < 0 ? '' : rest.slice(slash + 1);
  const reading = `Triton reads it as bucket "${bucket}", key prefix "${prefix}", on AWS S3 (the first segment after s3:// is the bucket unless the URL is s3://host:port/bucket/...)`;
  if (protocol) {
    // CleanPath put the protocol right after s3://, so the "bucket" is "http:" and the key the rest.
    throw new RemoteUrlError(
      shown,
      `Triton reads it as bucket "${protocol.slice(0, -2)}", key "/${rest}", which is not what was meant: a custom endpoint needs its port, as in s3://${protocol}host:9000/bucket/path`,
    );
  }
  if (/^[^/]+:[0-9]+$/.test(bucket)) {
    throw new RemoteUrlError(
      shown,
      `${reading}: the endpoint form s3://host:port/bucket/path takes a bucket of a-z, 0-9, '.' and '-', and path segments of letters, digits, '.', '-' and '_' only (s3.h's pattern), so Triton would not see the endpoint here`,
    );
  }
  if (!S3_BUCKET.test(bucket)) {
    throw new RemoteUrlError(shown, `${reading}, and "${bucket}" is not a valid S3 bucket name (3-63 characters of a-z, 0-9, '.', '-')`);
  }
  return { scheme: 's3', url: shown, bucket, prefix, reading };
}

function parseGcs(url: string): RemoteLocation {
  const shown = url.replace(/\/+$/, '');
  // gcs.h ParsePath: everything up to the next '/' is the bucket, the rest the object, uncleaned.
  const rest = url.slice('gs://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const object = slash < 0 ? '' : rest.slice(slash + 1);
  if (!bucket) throw new RemoteUrlError(shown, 'Triton refuses it ("No bucket name found in path"): write gs://bucket/path/to/repository');
  const reading = `Triton reads it as bucket "${bucket}", object prefix "${object.replace(/\/+$/, '')}"`;
  if (object.startsWith('/') || object.includes('//')) {
    throw new RemoteUrlError(
      shown,
      `${reading}, with an empty path segment: GCS keeps the slashes as written, so Triton would list objects under "${object}" (none, usually); write single slashes`,
    );
  }
  return { scheme: 'gs', url: shown, bucket, prefix: object.replace(/\/+$/, ''), reading };
}

/** as.h AS_URL_PATTERN: account (or host), container, optional blob path, optional ?query (ignored). */
const AS_URL = /^as:\/\/([^/]+)\/([^/?]+)(?:\/([^?]*))?(\?.*)?$/;

function parseAzure(url: string): RemoteLocation {
  const shown = url.replace(/\/+$/, '');
  const m = AS_URL.exec(url);
  if (!m) throw new RemoteUrlError(shown, 'Triton refuses it ("Invalid azure storage path"): write as://account/container/path/to/repository');
  const host = m[1]!;
  const account = host.endsWith('.blob.core.windows.net') ? host.slice(0, -'.blob.core.windows.net'.length) : host;
  const container = m[2]!;
  const prefix = (m[3] ?? '').replace(/\/+$/, '');
  return {
    scheme: 'as',
    url: shown,
    bucket: container,
    prefix,
    account,
    reading: `Triton reads it as account "${account}", container "${container}", blob prefix "${prefix}"${m[4] ? ` (the query ${m[4]} is ignored)` : ''}`,
  };
}

/** The URL of the object `key` of the repository at `loc` (for findings), written as the repository was. */
export function objectUrl(loc: RemoteLocation, relativeKey: string): string {
  return relativeKey ? `${loc.url}/${relativeKey}` : loc.url;
}
