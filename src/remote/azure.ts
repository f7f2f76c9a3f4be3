// Azure Blob Storage through @azure/storage-blob (optional: imported only for an as:// URL). The
// service is https://<account>.blob.core.windows.net, as core's as.h builds it, with the account
// of AZURE_STORAGE_ACCOUNT (or the credential file's account_str) over the URL's, as Triton does.
// TRITONC_AZURE_BLOB_ENDPOINT, tritonc's own, replaces the service URL (Azurite, sovereign clouds):
// Triton has no such setting.
import type { AzureCredential } from './credentials.js';
import { ListingBound, StoreError, collectBody, loadClient, kindOf, networkCode, type ObjectStore, type StoredObject } from './store.js';
import type { RemoteLocation } from './url.js';

type BlobModule = typeof import('@azure/storage-blob');

/** The account Triton would use for `loc`: the credential's over the URL's (as.h). */
export function azureAccount(loc: RemoteLocation, cred: AzureCredential): string {
  return cred.account ?? loc.account ?? '';
}

export async function azureStore(loc: RemoteLocation, cred: AzureCredential, env: Readonly<Record<string, string | undefined>>): Promise<ObjectStore> {
  const blob = loadClient<BlobModule>('@azure/storage-blob', 'as');
  const account = azureAccount(loc, cred);
  const service = env.TRITONC_AZURE_BLOB_ENDPOINT?.replace(/\/+$/, '') ?? `https://${account}.blob.core.windows.net`;
  const options = { retryOptions: { maxTries: 1 } };
  let credential: import('@azure/storage-blob').StorageSharedKeyCredential | import('@azure/storage-blob').AnonymousCredential | object;
  const authType = cred.authType ?? (cred.key ? 'key' : undefined);
  if (authType === 'key' && cred.key) credential = new blob.StorageSharedKeyCredential(account, cred.key);
  else if (authType === 'managed_identity' || authType === 'default') {
    const identity = loadClient<{ ManagedIdentityCredential: new (o?: unknown) => object; DefaultAzureCredential: new () => object }>('@azure/identity', 'as');
    credential = authType === 'default' ? new identity.DefaultAzureCredential() : new identity.ManagedIdentityCredential(cred.clientId ? { clientId: cred.clientId } : undefined);
  } else credential = new blob.AnonymousCredential();
  const client = new blob.BlobServiceClient(service, credential as import('@azure/storage-blob').StorageSharedKeyCredential, options).getContainerClient(loc.bucket);
  const call = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (e) {
      throw azureError(e);
    }
  };
  const body = (r: { readableStreamBody?: NodeJS.ReadableStream }, cap: number): Promise<Uint8Array> => collectBody(r.readableStreamBody as AsyncIterable<Uint8Array> | undefined, cap);
  return {
    list: (prefix, abortSignal) =>
      call(async () => {
        const out: StoredObject[] = [];
        const bound = new ListingBound();
        for await (const page of client.listBlobsFlat({ prefix, abortSignal }).byPage({ maxPageSize: 5000 })) {
          bound.page(page.segment.blobItems.length);
          for (const b of page.segment.blobItems) out.push({ key: b.name, size: b.properties.contentLength ?? 0 });
        }
        return out;
      }),
    read: (key, start, length, abortSignal) => call(async () => body(await client.getBlobClient(key).download(start, length, { abortSignal }), length)),
    get: (key, maxBytes, abortSignal) => call(async () => body(await client.getBlobClient(key).download(0, undefined, { abortSignal }), maxBytes)),
  };
}

function azureError(e: unknown): StoreError {
  if (e instanceof StoreError) return e;
  const x = e as { statusCode?: number; code?: string; message?: string; details?: { errorCode?: string } };
  const status = x.statusCode;
  const code = x.details?.errorCode ?? x.code ?? '';
  const detail = `${code ? `${code}: ` : ''}${(x.message ?? String(e)).split('\n')[0]}${status ? ` (HTTP ${status})` : ''}`;
  if (code === 'ContainerNotFound') return new StoreError('no-bucket', detail, status);
  if (code === 'BlobNotFound' || status === 404) return new StoreError('no-key', detail, status);
  if (code === 'ServerBusy' || code === 'OperationTimedOut') return new StoreError('throttled', detail, status);
  return new StoreError(kindOf(status, networkCode(e)), detail, status);
}
