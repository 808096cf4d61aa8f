/**
 * One Ember+ matrix of a provider, as the ember-consumer shows it (R-E2): each target's
 * connected source(s) as a read-write parameter, and the signals' labels as read-only ones.
 *
 *   <matrix>/targets/<t>/source    I   oneToN and oneToOne: the source on target t, -1 for none
 *   <matrix>/targets/<t>/sources   S   nToN: the sources on target t, ascending, comma-separated
 *                                      ("1,4"; "" for none)
 *   <matrix>/targets/<t>/label     S   read-only, when the matrix has labels
 *   <matrix>/sources/<s>/label     S   read-only, when the matrix has labels
 *
 * A write asks the provider for exactly those sources on the target (the absolute operation)
 * and is answered by the provider's next word on that target: confirmed when it holds what was
 * asked, refused with what it holds when it refused (locked) or changed the connect. How many
 * targets a provider can make appear is bounded by the connection's `maxParameters` (R-G4):
 * a count the provider states is never used to allocate anything.
 */
import { type DeviceParameters, HubError } from '../../sdk/index.ts';
import { type EmberElement } from '../../protocols/ember-plus.ts';
import type { Model } from 'emberplus-connection';
export type EmberMatrix = Extract<EmberElement, {
    type: Model.ElementType.Matrix;
}>;
/**
 * Why a write made through a reading whose link closed is refused at once: its socket is
 * gone, and the reading of the new link has not met the element yet, so nothing would
 * answer it before `timeout`.
 */
export declare function readingAgain(): HubError;
export interface MatrixOptions {
    readonly parameters: DeviceParameters;
    readonly send: (message: Buffer) => void;
    /** Who changed a value, as the parameters show it (R-O2). */
    readonly origin: string;
    /** Each parameter made or met again, so that the reading keeps it. */
    readonly made: (id: string) => void;
}
export declare class MatrixReading {
    /** The matrix's numbered path. */
    private readonly path;
    /** The hub id the matrix's parameters are under: its identifier path. */
    private readonly id;
    private readonly options;
    private many;
    /** Targets by number: those the provider listed, or 0…targetCount-1 for a linear matrix. */
    private readonly targets;
    private sources;
    private sourceCount;
    private targetsKnown;
    private readonly pending;
    /** Label values heard before the matrix said which targets and sources it has. */
    private readonly labels;
    private ended;
    constructor(
    /** The matrix's numbered path. */
    path: string, 
    /** The hub id the matrix's parameters are under: its identifier path. */
    id: string, options: MatrixOptions);
    /** The label node the matrix names (its first labels entry), or undefined. */
    labelsPath(contents: EmberMatrix): string | undefined;
    /** The matrix's contents as a message carries them: its signals, its connections, or both. */
    receive(contents: EmberMatrix): void;
    /** A label parameter of the matrix's label node: `targets` (1) or `sources` (2), numbered by signal. */
    label(key: string, value: string): void;
    /** The link closed: connects waiting for an answer are refused at once (R-G1). */
    end(): void;
    private define;
    private sourcesId;
    private isSource;
    /** The provider's word on `target`: shown, and the oldest connect waiting on it answered. */
    private connected;
    private valueOf;
    /** A hub write: asks the provider for exactly these sources on the target. */
    private connect;
}
