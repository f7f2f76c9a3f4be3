// A mounted repository over an in-memory ObjectStore (tritonc's own interface, remote/store.ts): the
// tree it shows from one listing, what a run asks for and gets once fetched, and the messages of a
// store's failures.
import { describe, expect, it } from 'vitest';
import { MountedRepository, RemoteAccessError } from '../../src/remote/mounted.js';
import { StoreError, type ObjectStore } from '../../src/remote/store.js';
import { parseRemoteUrl } from '../../src/remote/url.js';

function memoryStore(objects: Record<string, string>, fail?: StoreError): ObjectStore & { gets: string[] } {
  const gets: string[] = [];
  const bytes = (k: string): Uint8Array => new TextEncoder().encode(objects[k]);
  return {
    gets,
    list: async (prefix) => {
      if (fail) throw fail;
      return Object.keys(objects)
        .filter((k) => k.startsWith(prefix))
        .map((key) => ({ key, size: bytes(key).byteLength }));
    },
    read: async (key, start, length) => bytes(key).subarray(start, start + length),
    get: async (key) => {
      gets.push(key);
      if (!(key in objects)) throw new StoreError('no-key', 'NoSuchKey');
      return bytes(key);
    },
  };
}

const open = (objects: Record<string, string>, fail?: StoreError) => {
  const store = memoryStore(objects, fail);
  const loc = parseRemoteUrl('s3://models/prod');
  return { store, mount: MountedRepository.open(loc, loc.url, '/stand-in/prod', { env: {}, readFile: () => '', store: async () => store }) };
};

describe('the tree of one listing', () => {
  it('shows directories, directory markers and files; a name that is also a prefix is a directory', async () => {
    const { mount } = open({
      'prod/a/config.pbtxt': 'name: "a"',
      'prod/a/1/model.onnx': 'x',
      'prod/empty/': '',
      'prod/both': 'file',
      'prod/both/inner': 'y',
      'prod//odd': 'z',
      'elsewhere/x': 'no',
    });
    const m = await mount;
    const names = (dir: string) =>
      m
        .entries(dir)
        .map((e) => `${e.name}:${e.kind}`)
        .sort();
    expect(names('/stand-in/prod')).toEqual(['a:dir', 'both:dir', 'empty:dir']);
    expect(names('/stand-in/prod/a')).toEqual(['1:dir', 'config.pbtxt:file']);
    expect(m.kind('/stand-in/prod/a/1/model.onnx')).toBe('file');
    expect(m.size('/stand-in/prod/a/1/model.onnx')).toBe(1);
    expect(m.kind('/stand-in/prod/nothing')).toBeUndefined();
    expect(m.owns('/stand-in/prodx')).toBe(false);
    expect(m.urlOf('/stand-in/prod/a/config.pbtxt')).toBe('s3://models/prod/a/config.pbtxt');
  });

  it('fetches configs with the listing, other texts when a run asks for them', async () => {
    const { store, mount } = open({ 'prod/a/config.pbtxt': 'name: "a"', 'prod/a/1/model.py': 'pass\n' });
    const m = await mount;
    expect(store.gets).toEqual(['prod/a/config.pbtxt']);
    expect(m.text('/stand-in/prod/a/config.pbtxt')).toEqual({ kind: 'text', text: 'name: "a"' });
    expect(m.text('/stand-in/prod/a/1/model.py')).toEqual({ kind: 'unreadable', reason: 'not fetched yet' });
    expect(m.pending).toBe(1);
    await m.fetchPending();
    expect(m.pending).toBe(0);
    expect(m.text('/stand-in/prod/a/1/model.py')).toEqual({ kind: 'text', text: 'pass\n' });
    expect(m.text('/stand-in/prod/a/1/none.py')).toEqual({ kind: 'missing' });
  });
});

describe('failures', () => {
  const failure = async (e: StoreError): Promise<string> => {
    try {
      await open({}, e).mount;
    } catch (x) {
      if (x instanceof RemoteAccessError) return x.message;
      throw x;
    }
    throw new Error('opened');
  };

  it('no credential at all: where it looked, and where Triton takes one from', async () => {
    expect(await failure(new StoreError('no-credentials', 'CredentialsProviderError: Could not load credentials from any providers'))).toBe(
      's3://models/prod: cannot list the repository: no credential found (CredentialsProviderError: Could not load credentials from any providers); looked at the AWS profile "default" (no AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_PROFILE set). Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or TRITON_CLOUD_CREDENTIAL_PATH',
    );
  });

  it('an empty prefix is no repository', async () => {
    await expect(open({ 'other/x': '1' }).mount).rejects.toThrow(
      /s3:\/\/models\/prod: no objects under it, so no repository; Triton reads it as bucket "models", key prefix "prod"/,
    );
  });
});
