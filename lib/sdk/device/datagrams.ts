/**
 * What every device type that receives datagrams (osc, udp) does with its socket.
 */
import type { Socket } from 'node:dgram';

/**
 * A receive buffer for bursts: 4 MiB where the system allows it (Linux caps it at
 * net.core.rmem_max). With the default 208 KiB, a few hundred datagrams that arrive while the
 * hub is busy for some milliseconds (fanning a change out to a thousand dashboards) are
 * dropped by the kernel before the hub sees them.
 */
export function roomForBursts(socket: Socket): void {
  try {
    socket.setRecvBufferSize(4 * 1024 * 1024);
  } catch {
    // Refused by the system: the default buffer it is.
  }
}
