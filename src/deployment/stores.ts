// Which repository each --model-repository of a deployed server is: a URL Triton reads itself
// (s3://, gs://, as://), the storage a platform copies to the path the server reads (KServe's
// storageUri at /mnt/models, SageMaker's ModelDataUrl at /opt/ml/model), or a volume mounted in the
// container, which only the user can name on this machine (a local directory given to lint).
import { isRemoteUrl } from '../remote/url.js';
import type { DeployedServer, Location } from './server.js';

export interface ServerStore {
  /** As the server's command line names it. */
  readonly named: string;
  /** Where: the --model-repository word, or the storage URI that fills it. */
  readonly at: Location;
  /** A URL tritonc reads as Triton would; undefined: a directory in the container, which the user maps. */
  readonly url?: string;
  /** Why the store cannot be read from here, for the usage message (a tarball, a PVC). */
  readonly why?: string;
}

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

/** The repositories a server serves, in its command line's order. */
export function serverStores(server: DeployedServer): ServerStore[] {
  return server.commandLine.modelStores.map((o) => {
    const word = server.words[o.valueWord];
    const at = word?.at ?? server.at;
    const storage = server.storage;
    if (storage && trimSlash(o.value) === trimSlash(storage.mountPath)) {
      const uri = storage.uri.value;
      if (isRemoteUrl(uri) && !/\.tar\.gz$|\.tgz$/.test(uri)) return { named: uri, at: storage.uri.at, url: uri };
      const why = /\.tar\.gz$|\.tgz$/.test(uri)
        ? `${uri} is an archive the platform unpacks into ${storage.mountPath}`
        : `${uri} is copied into ${storage.mountPath}, and tritonc reads s3://, gs:// and as:// only`;
      return { named: uri, at: storage.uri.at, why };
    }
    if (isRemoteUrl(o.value)) return { named: o.value, at, url: o.value };
    return { named: o.value, at, why: `${o.value} is a directory in the container` };
  });
}
