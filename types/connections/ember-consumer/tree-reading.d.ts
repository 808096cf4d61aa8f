/**
 * The ember-consumer's reading of one provider's tree over one link (R-E2): asks for the root
 * and for every node in the selected paths (a GetDirectory, which also subscribes to the
 * node's children), makes a hub parameter of each Ember+ parameter it meets, follows their
 * values, and settles writes when the provider answers them. A new reading starts at every
 * connect; once every node asked for has answered, parameters the provider no longer has go.
 */
import { type DeviceParameters, type Logger } from '../../sdk/index.ts';
import { type Met } from '../../protocols/ember-plus.ts';
export interface ReadingOptions {
    readonly parameters: DeviceParameters;
    readonly log: Logger;
    /** Selected subtrees as segment lists (`router/levels` → ["router", "levels"]); empty: the whole tree. */
    readonly paths: readonly (readonly string[])[];
    /** Element kinds already warned about: one warning each for the connection's life. */
    readonly warned: Set<string>;
    /** Enum names by parameter id, for the connection's details. */
    readonly enums: Map<string, Record<string, string>>;
    /** Who changed a value, as the parameters show it (R-O2). */
    readonly origin: string;
}
export declare class TreeReading {
    private readonly send;
    private readonly options;
    private readonly known;
    private readonly asked;
    private readonly unanswered;
    private readonly seen;
    private readonly pending;
    private readonly matrices;
    /** Label nodes' numbered paths (`<basePath>.1` targets, `.2` sources), with the matrix they name. */
    private readonly labelNodes;
    private complete;
    private ended;
    constructor(send: (message: Buffer) => void, options: ReadingOptions);
    /** Asks for the root: the reading starts. */
    begin(): void;
    /** The link closed: writes waiting for an answer are refused at once (R-G1). */
    end(): void;
    /** The elements of one message from the provider. */
    receive(met: readonly Met[]): void;
    /** A GetDirectory; `awaited`: the reading is complete only once it is answered. */
    private ask;
    /**
     * A matrix: its parameters under its identifier path. Asking for the matrix itself brings its
     * targets, sources and connections (a node's directory lists a matrix without them) and
     * subscribes to its connections; asking for its label node brings its labels, wherever
     * the provider keeps them.
     */
    private matrix;
    /** A string parameter in a matrix's label node is the label of a target or a source. */
    private label;
    private namesOf;
    private node;
    private parameter;
    private make;
    /** A hub write: a setValue of the parameter, confirmed when the provider answers with the value written. */
    private write;
    private settle;
    /** Every node asked for has answered: what was not met again is gone from the provider. */
    private finish;
    private skip;
    /** Whether the element at `names` is inside a selected subtree. */
    private selects;
    /** Whether a node at `names` is inside a selected subtree, or on the way to one. */
    private leadsToSelection;
}
