// Google Cloud Storage through @google-cloud/storage (optional: imported only for a gs:// URL): the
// JSON API's object listing and media download with a Range header. The credential is the file
// Triton would read (GOOGLE_APPLICATION_CREDENTIALS, or the credential file's entry); without one, the
// library's application default credentials. STORAGE_EMULATOR_HOST (the library's variable) points
// it at an emulator; Triton's own client has no such setting in core's gcs.h.
import type { GcsCredential } from './credentials.js';
import { StoreError, loadClient, kindOf, networkCode, type ObjectStore } from './store.js';
import type { RemoteLocation } from './url.js';

type GcsModule = typeof import('@google-cloud/storage');

export async function gcsStore(loc: RemoteLocation, cred: GcsCredential, env: Readonly<Record<string, string | undefined>>): Promise<ObjectStore> {
  const { Storage } = loadClient<GcsModule>('@google-cloud/storage', 'gs');
  const emulator = env.STORAGE_EMULATOR_HOST;
  const storage = new Storage({
    retryOptions: { autoRetry: false },
    ...(emulator ? { apiEndpoint: emulator.replace(/\/+$/, '') } : {}),
    ...(cred.file ? { keyFilename: cred.file } : {}),
  });
  const bucket = storage.bucket(loc.bucket);
  const call = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      throw gcsError(e);
    }
  };
  const bytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return {
    list: (prefix) =>
      call(async () => {
        const [files] = await bucket.getFiles({ prefix, autoPaginate: true });
        return files.map((f) => ({ key: f.name, size: Number(f.metadata.size ?? 0) }));
      }),
    read: (key, start, length) =>
      call(async () => {
        const [b] = await bucket.file(key).download({ start, end: start + length - 1, validation: false });
        return bytes(b);
      }),
    get: (key) =>
      call(async () => {
        const [b] = await bucket.file(key).download({ validation: false });
        return bytes(b);
      }),
  };
}

function gcsError(e: unknown): StoreError {
  const x = e as { code?: number | string; message?: string };
  const status = typeof x.code === 'number' ? x.code : undefined;
  const detail = `${x.message ?? String(e)}${status ? ` (HTTP ${status})` : ''}`;
  if (status === 404) return new StoreError(/bucket/i.test(x.message ?? '') ? 'no-bucket' : 'no-key', detail, status);
  if (/Could not load the default credentials/i.test(x.message ?? '')) return new StoreError('no-credentials', detail, status);
  if (/invalid_grant|unauthorized_client/i.test(x.message ?? '')) return new StoreError('denied', detail, status);
  return new StoreError(kindOf(status, networkCode(e)), detail, status);
}
