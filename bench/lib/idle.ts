import { openSync, writeSync } from 'node:fs';

/**
 * Keeps idle cores polling instead of halting while the bench runs, and says which.
 *
 * On a virtual machine a halted core is woken by an interrupt from another core, which
 * costs the waking process a trip to the hypervisor: a server that answers a load tool on
 * the other core pays it for every answer that finds the tool asleep. How often it does
 * depends on the pattern of its answers, not on its work: a hub answering each turn's
 * kept writes together (after their commit) leaves the tool idle between bursts, and
 * measured 0.79–0.83× the writes of `--state none` at 1.19–1.27× its CPU with cores
 * halting, 0.88–1.01× at 1.01–1.15× with them polling (`bench/README.md`, "Idle cores
 * poll"). A studio's clients do not share the hub's cores.
 *
 * A request of 0 µs to the kernel's CPU latency limit (PM QoS, `/dev/cpu_dma_latency`)
 * makes every idle core poll: what benchmark and real-time tools do to take wake-up
 * latency out of a measurement. It lasts while the file is open and ends with the process,
 * however it ends. Opening it needs root (CI runs as root); without, cores halt as usual
 * and the run's header says so. `--idle=halt` measures that way on purpose.
 */
export function keepCoresPolling(wanted: boolean): string {
  if (!wanted) return 'idle cores halt (--idle=halt)';
  try {
    const fd = openSync('/dev/cpu_dma_latency', 'w');
    const limit = Buffer.alloc(4); // a 32-bit count of µs: 0
    writeSync(fd, limit); // the file stays open: the kernel drops the request when the process exits
    return 'idle cores poll (a 0 µs CPU latency request held by the bench)';
  } catch (error) {
    return `idle cores halt (no CPU latency request: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}
