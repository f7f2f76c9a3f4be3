// Repository URLs parsed with Triton's rules (core src/filesystem/implementations/s3.h ParsePath,
// CleanPath and s3_regex_; gcs.h ParsePath; as.h AS_URL_PATTERN).
import { describe, expect, it } from 'vitest';
import { RemoteUrlError, isRemoteUrl, nearRemoteUrl, parseRemoteUrl } from '../../src/remote/url.js';

const parsed = (url: string) => {
  const { scheme, bucket, prefix, endpoint, account } = parseRemoteUrl(url);
  return { scheme, bucket, prefix, ...(endpoint ? { endpoint } : {}), ...(account ? { account } : {}) };
};

const problem = (url: string): string => {
  try {
    parseRemoteUrl(url);
  } catch (e) {
    if (e instanceof RemoteUrlError) return e.problem;
    throw e;
  }
  throw new Error(`${url} parsed`);
};

describe('S3 URLs', () => {
  it('takes the first segment as the bucket, on AWS', () => {
    expect(parsed('s3://models/prod/repo')).toEqual({ scheme: 's3', bucket: 'models', prefix: 'prod/repo' });
    expect(parsed('s3://models')).toEqual({ scheme: 's3', bucket: 'models', prefix: '' });
  });

  it('drops leading, trailing and repeated slashes, as CleanPath does', () => {
    expect(parsed('s3://models//prod///repo/')).toEqual({ scheme: 's3', bucket: 'models', prefix: 'prod/repo' });
  });

  it('reads host:port as a custom endpoint, over http unless the URL says https', () => {
    expect(parsed('s3://minio.local:9000/models/repo')).toEqual({ scheme: 's3', bucket: 'models', prefix: 'repo', endpoint: 'http://minio.local:9000' });
    expect(parsed('s3://https://minio.local:9000/models/repo')).toEqual({
      scheme: 's3',
      bucket: 'models',
      prefix: 'repo',
      endpoint: 'https://minio.local:9000',
    });
    expect(parsed('s3://http://10.0.0.5:9000/models')).toEqual({ scheme: 's3', bucket: 'models', prefix: '', endpoint: 'http://10.0.0.5:9000' });
  });

  it('says how Triton reads an endpoint without a port', () => {
    expect(problem('s3://http://minio.local/models/repo')).toBe(
      'Triton reads it as bucket "http:", key "/minio.local/models/repo", which is not what was meant: a custom endpoint needs its port, as in s3://http://host:9000/bucket/path',
    );
  });

  it("says when the endpoint form does not match s3.h's pattern, so Triton takes host:port as the bucket", () => {
    expect(problem('s3://minio.local:9000/Models_Upper/repo')).toMatch(/bucket "minio.local:9000".*pattern/);
    expect(problem('s3://minio.local:9000/models/my repo')).toMatch(/bucket "minio.local:9000"/);
  });

  it('refuses a bucket name S3 cannot have, and an empty one', () => {
    expect(problem('s3://My_Bucket/repo')).toMatch(/"My_Bucket" is not a valid S3 bucket name/);
    expect(problem('s3:///')).toMatch(/Invalid bucket name/);
  });
});

describe('GCS URLs', () => {
  it('takes the first segment as the bucket and the rest as the object prefix', () => {
    expect(parsed('gs://models/prod/repo/')).toEqual({ scheme: 'gs', bucket: 'models', prefix: 'prod/repo' });
  });

  it('refuses a missing bucket and empty segments, which GCS keeps as written', () => {
    expect(problem('gs:///repo')).toMatch(/No bucket name found in path/);
    expect(problem('gs://models//repo')).toMatch(/empty path segment/);
  });
});

describe('Azure URLs', () => {
  it('reads account, container and blob prefix', () => {
    expect(parsed('as://acct/models/prod/repo')).toEqual({ scheme: 'as', bucket: 'models', prefix: 'prod/repo', account: 'acct' });
    expect(parsed('as://acct.blob.core.windows.net/models')).toEqual({ scheme: 'as', bucket: 'models', prefix: '', account: 'acct' });
  });

  it('refuses a URL without a container ("Invalid azure storage path")', () => {
    expect(problem('as://acct')).toMatch(/Invalid azure storage path/);
  });

  it('says the query is ignored', () => {
    expect(parseRemoteUrl('as://acct/models/repo?sv=1').reading).toMatch(/the query \?sv=1 is ignored/);
  });
});

describe('what is a URL', () => {
  it('takes only the lower-case schemes at the start, as api.cc GetFileSystem', () => {
    expect(isRemoteUrl('s3://b/p')).toBe(true);
    expect(isRemoteUrl('S3://b/p')).toBe(false);
    expect(isRemoteUrl('./s3://b')).toBe(false);
  });

  it("proposes Triton's form for a near miss", () => {
    expect(nearRemoteUrl('S3://bucket/repo')).toBe('s3://bucket/repo');
    expect(nearRemoteUrl('gs:/bucket/repo')).toBe('gs://bucket/repo');
    expect(nearRemoteUrl('model_repository')).toBeUndefined();
  });
});
