// Google Cloud Storage through @google-cloud/storage (optional: imported only for a gs:// URL): the
// JSON API's object listing and media download with a Range header. The credential is the file
// Triton would read (GOOGLE_APPLICATION_CREDENTIALS, or the credential file's entry); without one, the
// library's application default credentials. STORAGE_EMULATOR_HOST (the library's variable) points
// it at an emulator; Triton's own client has no such setting in core's gcs.h.
import type { GcsCredential } from './credentials.js';
import { ListingBound, StoreError, collectBody, loadClient, kindOf, networkCode, type ObjectStore, type StoredObject } from './store.js';
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
  return {
    list: (prefix) =>
      call(async () => {
        const out: StoredObject[] = [];
        const bound = new ListingBound();
        let query: { prefix: string; pageToken?: string } | undefined = { prefix };
        // Page by page, so a listing without end is stopped by its bound.
        while (query) {
          const [files, next]: [{ name: string; metadata: { size?: string | number } }[], { pageToken?: string } | null | undefined, unknown?] = await bucket.getFiles({ ...query, autoPaginate: false, maxResults: 1000 });
          bound.page(files.length);
          for (const f of files) out.push({ key: f.name, size: Number(f.metadata.size ?? 0) });
          query = next?.pageToken ? { prefix, pageToken: next.pageToken } : undefined;
        }
        return out;
      }),
    read: (key, start, length) => call(() => collectBody(bucket.file(key).createReadStream({ start, end: start + length - 1, validation: false }), length)),
    get: (key, maxBytes) => call(() => collectBody(bucket.file(key).createReadStream({ validation: false }), maxBytes)),
  };
}

function gcsError(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const x = e as { code?: number | string; message?: string };
  const status = typeof x.code === 'number' ? x.code : undefined;
  const detail = `${x.message ?? String(e)}${status ? ` (HTTP ${status})` : ''}`;
  if (status === 404) return new StoreError(/bucket/i.test(x.message ?? '') ? 'no-bucket' : 'no-key', detail, status);
  if (/Could not load the default credentials/i.test(x.message ?? '')) return new StoreError('no-credentials', detail, status);
  if (/invalid_grant|unauthorized_client/i.test(x.message ?? '')) return new StoreError('denied', detail, status);
  return new StoreError(kindOf(status, networkCode(e)), detail, status);
}
