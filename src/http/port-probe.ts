import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * Why the service could not listen on `host:port`, in words naming the settings and the
 * fix, or undefined when it can. Checked before the store is opened and the catalog
 * loaded, so a busy port is said at once, not after a long start (another program may
 * still take the port in between: listening then fails as before).
 */
export async function portProblem(host: string, port: number): Promise<string | undefined> {
  if (port === 0) return undefined;
  const probe = createServer();
  try {
    probe.listen({ host, port, exclusive: true });
    await once(probe, 'listening');
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return `PORT=${port}: ${host}:${port} is already in use (another Vetrina, or another program); stop it, or set PORT to a free port`;
    if (code === 'EACCES') return `PORT=${port}: this user may not listen on ports below 1024; set PORT to 1024 or above (3000 by default)`;
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return `HOST=${host}: no interface of this machine has that address; set HOST to one it has (127.0.0.1, the default, or 0.0.0.0 for all)`;
    }
    return `HOST=${host}, PORT=${port}: cannot listen there (${(error as Error).message})`;
  } finally {
    if (probe.listening) {
      probe.close();
      await once(probe, 'close');
    }
  }
}
