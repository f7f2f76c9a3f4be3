// Free host ports for the container's HTTP, gRPC and metrics endpoints: bind port 0 on the loopback
// address, read the port the OS picked, close. All are held open together so they differ; another
// process could still take one before docker binds it, in which case docker says "port is already
// allocated" and verify exits 2 (run it again).
import { createServer, type Server } from 'node:net';

export type PortFinder = (count: number) => Promise<number[]>;

const listen = (server: Server, host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });

export const freePorts: PortFinder = async (count) => {
  const servers = Array.from({ length: count }, () => createServer());
  try {
    return await Promise.all(servers.map((s) => listen(s, '127.0.0.1')));
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
  }
};
