/**
 * Why a port could not be had, said the same way by every listener (the rest-api, a TCP or
 * UDP device port): in the words an engineer acts on, not the system's error code.
 */
export function whyNotBound(error: NodeJS.ErrnoException, bindIp: string): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return 'the port is in use by another process';
    case 'EADDRNOTAVAIL':
      return `${bindIp} is not an address of this machine`;
    case 'EACCES':
      return 'permission denied (ports below 1024 need privileges)';
    default:
      return error.message;
  }
}
