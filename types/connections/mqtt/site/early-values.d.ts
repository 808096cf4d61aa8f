import { type Scheduler } from '../../../sdk/index.ts';
import type { MessageProperties } from '../broker-link.ts';
import type { MqttOverruns } from '../settings.ts';
/** A value that came, signed by `from`, before the description of its connection. */
export interface EarlyValue {
    readonly from: string;
    readonly payload: Buffer;
    readonly properties: MessageProperties;
    readonly at: number;
}
export declare class EarlyValues {
    private readonly scheduler;
    private readonly heldAtMost;
    private readonly overruns;
    private readonly byAddress;
    private readonly ageing;
    constructor(scheduler: Scheduler, heldAtMost: number, overruns: MqttOverruns);
    get size(): number;
    /** Holds a value for a parameter not shown yet; the newest of an address replaces the one before. */
    hold(address: string, value: Omit<EarlyValue, 'at'>): void;
    /** The value held for `address`, let go of. */
    take(address: string): EarlyValue | undefined;
    stop(): void;
    /** Drops held values older than a minute: their parameters did not come. Oldest first, in the order they came. */
    private age;
}
