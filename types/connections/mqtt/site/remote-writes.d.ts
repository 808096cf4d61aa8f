import { type Answered, type Scheduler, type SetResult, type Value, type ValueType } from '../../../sdk/index.ts';
import type { BrokerLink, MessageProperties } from '../broker-link.ts';
import type { TopicLayout } from '../topics.ts';
/** The hub a write goes to, and its broker session now. */
export interface Owner {
    readonly hubId: string;
    readonly session: string;
}
export declare class RemoteWrites {
    private readonly hubId;
    private readonly link;
    private readonly layout;
    private readonly qos;
    private readonly scheduler;
    private readonly waiting;
    private sweep;
    constructor(hubId: string, link: BrokerLink, layout: TopicLayout, qos: 0 | 1 | 2, scheduler: Scheduler);
    /** Sends a write of `address` to its owner; `answered`, when given, is told the owner's answer. */
    send(address: string, type: ValueType, value: Value, origin: string | undefined, answered: Answered | undefined, owner: Owner): SetResult;
    /** An answer signed by `from`: taken only from the hub the write went to. */
    answer(from: string, payload: Buffer, properties: MessageProperties): void;
    /** Every writer still waiting is told the connection stopped. */
    stop(): void;
    private expire;
}
