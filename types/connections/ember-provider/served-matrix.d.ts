import { type ConnectionContext, type OwnedParameter, type Value } from '../../sdk/index.ts';
import { type EmberConnection, type EmberElement } from '../../protocols/ember-plus.ts';
/** At most this many targets, and as many sources, in one declared matrix: 4,096 is past the largest routers' levels. */
export declare const MAX_SIGNALS = 4096;
export declare const matrixDeclaration: import("@sinclair/typebox").TObject<{
    id: import("@sinclair/typebox").TString;
    targets: import("@sinclair/typebox").TInteger;
    sources: import("@sinclair/typebox").TInteger;
    type: import("../../sdk/settings.ts").TDefaulted<import("@sinclair/typebox").TUnion<[import("@sinclair/typebox").TLiteral<"oneToN">, import("@sinclair/typebox").TLiteral<"oneToOne">, import("@sinclair/typebox").TLiteral<"nToN">]>>;
}>;
export interface MatrixDeclaration {
    readonly id: string;
    readonly targets: number;
    readonly sources: number;
    readonly type: 'oneToN' | 'oneToOne' | 'nToN';
}
export declare class ServedMatrix {
    readonly declared: MatrixDeclaration;
    /** Each target's parameter, by target number. */
    readonly targets: readonly OwnedParameter[];
    private readonly many;
    constructor(context: ConnectionContext, declared: MatrixDeclaration);
    /** The sources target `target` holds now. */
    sourcesOf(target: number): number[];
    /** What a consumer's connection request asks target `target` to hold, as the hub writes it; undefined for no such target. */
    asked(request: EmberConnection): Value | undefined;
    /** The matrix as an element: with the connections of the targets given, or (a node's listing) none. */
    contents(identifier: string, targets?: readonly number[]): EmberElement;
    /** Every target number. */
    allTargets(): number[];
    private valueOf;
    /** A write's value: a source of this matrix (or -1), or for nToN a list of them, normalized. */
    private accept;
    /** oneToOne: the source just connected leaves every other target. */
    private taken;
}
