import { HubError } from '../core/errors.ts';
import type { ConnectionType } from '../connections/connection.ts';
/** A package of the flow's `plugins` that was used. */
export interface PluginPackage {
    readonly name: string;
    readonly version: string;
    readonly folder: string;
    readonly types: readonly string[];
}
/** A package of the flow's `plugins` that was refused, and why. */
export interface RefusedPlugin {
    /** Its position in `plugins`. */
    readonly index: number;
    readonly entry: string;
    readonly error: HubError;
    /** The type names it declares, when its package.json could be read: their connections fail with its error. */
    readonly types: readonly string[];
    /** Its name and version, when its package.json could be read: `/connections` shows them beside a refused connection. */
    readonly package?: {
        readonly name: string;
        readonly version: string;
    };
    /** Set when the entry names a package an earlier entry already loaded (its position): that one's types run. */
    readonly repeats?: number;
}
export interface Plugins {
    /** The types of the packages in use. */
    readonly types: readonly ConnectionType[];
    readonly packages: readonly PluginPackage[];
    readonly refused: readonly RefusedPlugin[];
}
export declare const noPlugins: Plugins;
/** The versions of the connection API this hub speaks. */
export declare const spokenApiVersions: readonly number[];
/**
 * Loads the packages a flow file's `plugins` names. `taken` are the types already there
 * (the built-in ones). Entries that are not strings are the schema's to report.
 */
export declare function loadPlugins(entries: unknown, baseDir: string, taken: readonly ConnectionType[]): Promise<Plugins>;
/**
 * What a connection of a refused package's type is: a type that takes any settings and
 * fails at start with the package's error, so the hub runs everything else (R-PK3).
 */
export declare function refusedType(type: string, { error, package: known }: Pick<RefusedPlugin, 'error' | 'package'>): ConnectionType;
