// The credential Triton would use for a URL: core src/filesystem/api.cc LoadCredentials (the
// credential file replaces the environment), GetLongestMatchingNameIndex (longest name that starts
// the path), and the credential constructors of s3.h, gcs.h and as.h.
import { describe, expect, it } from 'vitest';
import { CredentialError, credentialFor } from '../../src/remote/credentials.js';
import { parseRemoteUrl } from '../../src/remote/url.js';

const files =
  (map: Record<string, string>) =>
  (path: string): string => {
    if (!(path in map)) throw new Error('no such file');
    return map[path]!;
  };

const forUrl = (url: string, env: Record<string, string>, fs: Record<string, string> = {}) =>
  credentialFor(parseRemoteUrl(url), url, { env, readFile: files(fs) });

describe('credentials from the environment', () => {
  it('S3: the key pair, with its session token and region', () => {
    const c = forUrl('s3://bkt/repo', { AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK', AWS_SESSION_TOKEN: 'T', AWS_DEFAULT_REGION: 'eu-west-1' });
    expect(c).toEqual({
      scheme: 's3',
      s3: { keyId: 'AK', secretKey: 'SK', sessionToken: 'T', region: 'eu-west-1' },
      source: 'AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    });
  });

  it('S3: the profile without a key pair, else "default"', () => {
    expect(forUrl('s3://bkt/repo', { AWS_PROFILE: 'ml' }).source).toBe('the AWS profile "ml" (AWS_PROFILE)');
    expect(forUrl('s3://bkt/repo', { AWS_ACCESS_KEY_ID: 'AK' }).source).toMatch(/profile "default"/);
  });

  it('GCS: the credential file; Azure: account and key', () => {
    expect(forUrl('gs://b/repo', { GOOGLE_APPLICATION_CREDENTIALS: '/k.json' })).toEqual({
      scheme: 'gs',
      gs: { file: '/k.json' },
      source: 'GOOGLE_APPLICATION_CREDENTIALS=/k.json',
    });
    expect(forUrl('as://a/c/repo', { AZURE_STORAGE_ACCOUNT: 'other', AZURE_STORAGE_KEY: 'K' })).toEqual({
      scheme: 'as',
      as: { account: 'other', key: 'K' },
      source: 'AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY',
    });
  });
});

describe('TRITON_CLOUD_CREDENTIAL_PATH', () => {
  const file = JSON.stringify({
    s3: {
      '': { key_id: 'ALL', secret_key: 'x' },
      's3://prod': { key_id: 'PROD', secret_key: 'y', region: 'us-west-2' },
      's3://prod/team-a': { profile: 'team-a' },
    },
    gs: { 'gs://bucket': '/gcs.json' },
  });
  const env = { TRITON_CLOUD_CREDENTIAL_PATH: '/creds.json', AWS_ACCESS_KEY_ID: 'ENV', AWS_SECRET_ACCESS_KEY: 'ENV' };
  const fs = { '/creds.json': file };

  it('takes the longest name that starts the URL, and ignores the environment', () => {
    expect(forUrl('s3://prod/team-a/repo', env, fs)).toMatchObject({ s3: { profile: 'team-a' }, source: expect.stringContaining('"s3://prod/team-a"') });
    expect(forUrl('s3://prod/other', env, fs)).toMatchObject({ s3: { keyId: 'PROD', region: 'us-west-2' } });
    expect(forUrl('s3://staging/repo', env, fs)).toMatchObject({ s3: { keyId: 'ALL' } });
  });

  it('matches as a plain prefix of the text, as Triton does (s3://prod also matches s3://production)', () => {
    expect(forUrl('s3://production/repo', env, fs)).toMatchObject({ s3: { keyId: 'PROD' } });
  });

  it('says when nothing matches, with the names it has', () => {
    expect(() => forUrl('gs://elsewhere/repo', env, fs)).toThrow(
      /no credential matches gs:\/\/elsewhere\/repo \(Triton: "Cannot match credential for path"\); its "gs" names are "gs:\/\/bucket"/,
    );
    expect(() => forUrl('as://a/c', env, fs)).toThrow(/it has no "as" section/);
  });

  it('says when the file cannot be read or is not JSON', () => {
    expect(() => forUrl('s3://bkt/r', { TRITON_CLOUD_CREDENTIAL_PATH: '/missing.json' })).toThrow(CredentialError);
    expect(() => forUrl('s3://bkt/r', { TRITON_CLOUD_CREDENTIAL_PATH: '/bad.json' }, { '/bad.json': '{ s3: ' })).toThrow(/not JSON/);
  });
});
